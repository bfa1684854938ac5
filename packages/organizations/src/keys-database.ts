import type { Firestore } from "@google-cloud/firestore";

/** Firestore's name for a project's first database, and where keys live unless told otherwise. */
export const DEFAULT_DATABASE = "(default)";

/**
 * The records database and the API keys' database (docs/decisions/0010): keys apart, so that what may
 * write records (the worker) cannot reach them. When both are the same database one client serves both.
 */
export interface Databases {
  records: Firestore;
  keys: Firestore;
}

/** The records client with a client on `keysDatabase` beside it, opened only when that is another database. */
export function withKeysDatabase(
  records: Firestore,
  keysDatabase: string,
  open: (databaseId: string) => Firestore,
): Databases {
  return { records, keys: keysDatabase === records.databaseId ? records : open(keysDatabase) };
}

/** Ends the clients of `databases`, each once. */
export async function terminateDatabases(databases: Databases): Promise<void> {
  await Promise.allSettled([...new Set([databases.records, databases.keys])].map((db) => db.terminate()));
}
