import type { Firestore, QueryDocumentSnapshot } from "@google-cloud/firestore";
import { COLLECTIONS, UserError } from "@usage-ingestion/shared";
import { isAlreadyExists } from "@usage-ingestion/shared/server";
import { apiKeyDisplayPrefix, generateApiKey, hashApiKey } from "./api-keys.ts";
import type { Databases } from "./keys-database.ts";
import {
  type ApiKeyDocument,
  KEY_SCOPES,
  type KeyScope,
  type OrganizationDocument,
  type Status,
} from "./organization-documents.ts";

const ORG_ID = /^[a-z0-9][a-z0-9_-]{0,62}$/;

const organizations = (db: Firestore) => db.collection(COLLECTIONS.organizations);
/** Keys live in the keys database, apart from the records (docs/decisions/0010). */
const apiKeys = (db: Databases) => db.keys.collection(COLLECTIONS.apiKeys);

export async function createOrganization(db: Firestore, id: string, name = id, now = new Date()) {
  if (!ORG_ID.test(id)) {
    throw new UserError(
      `organization id "${id}" must be 1-63 characters of lower-case letters, digits, "-" or "_", starting with a letter or digit`,
    );
  }
  const doc: OrganizationDocument = { name, status: "active", created_at: now.toISOString() };
  try {
    await organizations(db).doc(id).create(doc);
  } catch (error) {
    if (isAlreadyExists(error)) throw new UserError(`organization "${id}" already exists`);
    throw error;
  }
  return { id, ...doc };
}

export async function getOrganization(db: Firestore, id: string): Promise<OrganizationDocument> {
  const snap = await organizations(db).doc(id).get();
  if (!snap.exists) throw new UserError(`organization "${id}" does not exist`);
  return snap.data() as OrganizationDocument;
}

export async function setOrganizationStatus(db: Firestore, id: string, status: Status) {
  await getOrganization(db, id);
  await organizations(db).doc(id).update({ status });
}

export async function listOrganizations(db: Firestore) {
  const snap = await organizations(db).orderBy("created_at").get();
  return snap.docs.map((doc) => ({ id: doc.id, ...(doc.data() as OrganizationDocument) }));
}

export function parseKeyScope(text: string): KeyScope {
  const scope = KEY_SCOPES.find((known) => known === text);
  if (!scope) throw new UserError(`--scope must be one of: ${KEY_SCOPES.join(", ")}`);
  return scope;
}

/**
 * Creates a key (or stores a given one, for a development key) and returns it: the only time it is seen.
 * `ingest` keys send usage; `read` keys read the reports and the dashboard; neither does the other's work.
 */
export async function createApiKey(
  db: Databases,
  organizationId: string,
  key = generateApiKey(),
  now = new Date(),
  scope: KeyScope = "ingest",
) {
  await getOrganization(db.records, organizationId);
  const doc: ApiKeyDocument = {
    organization_id: organizationId,
    prefix: apiKeyDisplayPrefix(key),
    status: "active",
    created_at: now.toISOString(),
    scope,
  };
  await apiKeys(db).doc(hashApiKey(key)).set(doc);
  return { key, ...doc };
}

export async function listApiKeys(db: Databases, organizationId: string) {
  await getOrganization(db.records, organizationId);
  const snap = await apiKeys(db).where("organization_id", "==", organizationId).get();
  return snap.docs
    .map((doc) => doc.data() as ApiKeyDocument)
    .sort((a, b) => a.created_at.localeCompare(b.created_at))
    .map(({ prefix, status, created_at, scope }) => ({ prefix, status, created_at, scope: scope ?? "ingest" }));
}

/** Disables the one key whose listed prefix starts with `prefix`; an ambiguous prefix is refused. */
export async function disableApiKey(db: Databases, prefix: string) {
  if (prefix.length < 6) throw new UserError("give at least 6 characters of the key prefix");
  const shown = apiKeyDisplayPrefix(prefix);
  const snap = await apiKeys(db).where("prefix", ">=", shown).where("prefix", "<=", `${shown}\uf8ff`).get();
  const matches = snap.docs.filter((doc) => (doc.data() as ApiKeyDocument).prefix.startsWith(shown));
  if (matches.length === 0) throw new UserError(`no key has the prefix "${prefix}"`);
  if (matches.length > 1) throw new UserError(`${matches.length} keys have the prefix "${prefix}"; give more of it`);
  const [match] = matches;
  await match?.ref.update({ status: "disabled" satisfies Status });
  return match?.data() as ApiKeyDocument;
}

/**
 * Copies every key of the records database's `api_keys` into the keys database (docs/decisions/0010, step 5
 * of the migration). A key already there is left as it is (it may have been disabled since), so the copy can
 * run again safely; the records database's keys are not removed.
 */
export async function copyApiKeysToKeysDatabase(db: Databases): Promise<{ copied: number; present: number }> {
  if (db.records === db.keys) throw new UserError("KEYS_DATABASE names the records database: there is nothing to copy");
  let copied = 0;
  let present = 0;
  const source = db.records.collection(COLLECTIONS.apiKeys);
  for await (const snap of source.stream() as AsyncIterable<QueryDocumentSnapshot>) {
    try {
      await apiKeys(db).doc(snap.id).create(snap.data());
      copied += 1;
    } catch (error) {
      if (!isAlreadyExists(error)) throw error;
      present += 1;
    }
  }
  return { copied, present };
}
