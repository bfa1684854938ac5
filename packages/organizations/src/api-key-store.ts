import type { DocumentReference, QueryDocumentSnapshot, Transaction } from "@google-cloud/firestore";
import { type ChangeContext, operatorChange, recordChange } from "@usage-ingestion/audit";
import { COLLECTIONS, NotFoundError, UserError } from "@usage-ingestion/shared";
import { isAlreadyExists } from "@usage-ingestion/shared/server";
import { API_KEY_ID, apiKeyDisplayPrefix, apiKeyId, generateApiKey, hashApiKey } from "./api-keys.ts";
import type { Databases } from "./keys-database.ts";
import { type ApiKeyDocument, KEY_SCOPES, type KeyScope, type Status } from "./organization-documents.ts";
import { getOrganization } from "./organizations.ts";

/** Keys live in the keys database, apart from the records (docs/decisions/0010). */
const apiKeys = (db: Databases) => db.keys.collection(COLLECTIONS.apiKeys);

export function parseKeyScope(text: string): KeyScope {
  const scope = KEY_SCOPES.find((known) => known === text);
  if (!scope) throw new UserError(`--scope must be one of: ${KEY_SCOPES.join(", ")}`);
  return scope;
}

/** A key as listings show it: never its hash, never the key. */
export interface ApiKeyView {
  id: string;
  name: string | null;
  prefix: string;
  scope: KeyScope;
  status: Status;
  created_at: string;
  created_by: { type: string; id: string } | null;
  last_used_at: string | null;
}

export const apiKeyView = (hash: string, doc: ApiKeyDocument): ApiKeyView => ({
  id: doc.id ?? apiKeyId(hash),
  name: doc.name ?? null,
  prefix: doc.prefix,
  scope: doc.scope ?? "ingest",
  status: doc.status,
  created_at: doc.created_at,
  created_by: doc.created_by ?? null,
  last_used_at: doc.last_used_at ?? null,
});

/**
 * Creates a key (or stores a given one, for a development key) and returns it: the only time it is seen.
 * `ingest` keys send usage; `read` keys read the reports and the dashboard; `admin` keys manage their
 * organization. The key and its audit entry are written in one transaction of the keys database
 * (docs/decisions/0024).
 */
export async function createApiKey(
  db: Databases,
  organizationId: string,
  key = generateApiKey(),
  now = new Date(),
  scope: KeyScope = "ingest",
  options: { name?: string; change?: ChangeContext } = {},
) {
  await getOrganization(db.records, organizationId);
  const change = options.change ?? operatorChange();
  if (options.name !== undefined && (options.name.length === 0 || options.name.length > 100)) {
    throw new UserError("the key's name must be 1-100 characters");
  }
  const hash = hashApiKey(key);
  const doc: ApiKeyDocument = {
    organization_id: organizationId,
    id: apiKeyId(hash),
    prefix: apiKeyDisplayPrefix(key),
    status: "active",
    created_at: now.toISOString(),
    scope,
    ...(options.name !== undefined ? { name: options.name } : {}),
    created_by: { type: change.actor.type, id: change.actor.id },
  };
  await db.keys.runTransaction(async (transaction) => {
    transaction.set(apiKeys(db).doc(hash), doc);
    recordChange(transaction, db.keys, organizationId, change, {
      action: "api_key.created",
      target: { type: "api_key", id: doc.id as string },
      after: apiKeyView(hash, doc),
    });
  });
  return { key, ...doc, view: apiKeyView(hash, doc) };
}

export async function listApiKeys(db: Databases, organizationId: string): Promise<ApiKeyView[]> {
  await getOrganization(db.records, organizationId);
  const snap = await apiKeys(db).where("organization_id", "==", organizationId).get();
  return snap.docs
    .map((doc) => apiKeyView(doc.id, doc.data() as ApiKeyDocument))
    .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
}

/** The organization's key with this id, read in `transaction`; NotFoundError for any other organization's. */
async function findKeyById(transaction: Transaction, db: Databases, organizationId: string, keyId: string) {
  if (!API_KEY_ID.test(keyId)) throw new NotFoundError(`organization "${organizationId}" has no key "${keyId}"`);
  const hashStart = keyId.slice("key_".length);
  const snap = await transaction.get(
    apiKeys(db).orderBy("__name__").startAt(hashStart).endAt(`${hashStart}\uf8ff`).limit(2),
  );
  const match = snap.docs.find((doc) => (doc.data() as ApiKeyDocument).organization_id === organizationId);
  if (!match) throw new NotFoundError(`organization "${organizationId}" has no key "${keyId}"`);
  return { ref: match.ref, hash: match.id, doc: match.data() as ApiKeyDocument };
}

/** Writes a key's change with its entry: `api_key.disabled`, `api_key.enabled` or `api_key.updated`. */
function writeKeyChange(
  transaction: Transaction,
  db: Databases,
  found: { ref: DocumentReference; hash: string; doc: ApiKeyDocument },
  changes: { status?: Status; name?: string },
  change: ChangeContext,
): ApiKeyView {
  const after: ApiKeyDocument = { ...found.doc, ...changes };
  const action =
    changes.status !== undefined && changes.status !== found.doc.status
      ? changes.status === "disabled"
        ? "api_key.disabled"
        : "api_key.enabled"
      : "api_key.updated";
  transaction.update(found.ref, changes);
  recordChange(transaction, db.keys, found.doc.organization_id, change, {
    action,
    target: { type: "api_key", id: found.doc.id ?? apiKeyId(found.hash) },
    before: apiKeyView(found.hash, found.doc),
    after: apiKeyView(found.hash, after),
  });
  return apiKeyView(found.hash, after);
}

/**
 * Disables or enables a key, or renames it (the management API's PATCH). A disabled key is refused within
 * the key cache's time (KEY_CACHE_TTL_MS), as after `admin key disable`.
 */
export async function updateApiKey(
  db: Databases,
  organizationId: string,
  keyId: string,
  changes: { status?: Status; name?: string },
  change: ChangeContext,
): Promise<ApiKeyView> {
  return db.keys.runTransaction(async (transaction) => {
    const found = await findKeyById(transaction, db, organizationId, keyId);
    return writeKeyChange(transaction, db, found, changes, change);
  });
}

/** Disables the one key whose listed prefix starts with `prefix`; an ambiguous prefix is refused. */
export async function disableApiKey(db: Databases, prefix: string, change: ChangeContext = operatorChange()) {
  if (prefix.length < 6) throw new UserError("give at least 6 characters of the key prefix");
  const shown = apiKeyDisplayPrefix(prefix);
  return db.keys.runTransaction(async (transaction) => {
    const snap = await transaction.get(
      apiKeys(db).where("prefix", ">=", shown).where("prefix", "<=", `${shown}\uf8ff`),
    );
    const matches = snap.docs.filter((doc) => (doc.data() as ApiKeyDocument).prefix.startsWith(shown));
    if (matches.length === 0) throw new NotFoundError(`no key has the prefix "${prefix}"`);
    if (matches.length > 1) throw new UserError(`${matches.length} keys have the prefix "${prefix}"; give more of it`);
    const [match] = matches as [(typeof matches)[number]];
    const doc = match.data() as ApiKeyDocument;
    writeKeyChange(transaction, db, { ref: match.ref, hash: match.id, doc }, { status: "disabled" }, change);
    return doc;
  });
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
