import { Firestore } from "@google-cloud/firestore";
import { type Databases, DEFAULT_DATABASE, withKeysDatabase } from "@usage-ingestion/organizations";

/**
 * The admin command line's Firestore client: the emulator when FIRESTORE_EMULATOR_HOST is set, Firestore in
 * GOOGLE_CLOUD_PROJECT otherwise. Against the emulator there is no metadata server to ask for a project or
 * credentials, so the look-up (and its MetadataLookupWarning on every command) is switched off.
 */
export function adminFirestore(
  env: NodeJS.ProcessEnv = process.env,
  settings: { useBigInt?: boolean } = {},
): Firestore {
  if (env.FIRESTORE_EMULATOR_HOST) env.METADATA_SERVER_DETECTION ??= "none";
  return new Firestore({ ...(env.GOOGLE_CLOUD_PROJECT ? { projectId: env.GOOGLE_CLOUD_PROJECT } : {}), ...settings });
}

/**
 * The records client with the keys database's beside it: KEYS_DATABASE names it, as for the gateway
 * (default "(default)", the records' own database).
 */
export function adminDatabases(records: Firestore, env: NodeJS.ProcessEnv = process.env): Databases {
  return withKeysDatabase(
    records,
    env.KEYS_DATABASE || DEFAULT_DATABASE,
    (databaseId) =>
      new Firestore({ ...(env.GOOGLE_CLOUD_PROJECT ? { projectId: env.GOOGLE_CLOUD_PROJECT } : {}), databaseId }),
  );
}
