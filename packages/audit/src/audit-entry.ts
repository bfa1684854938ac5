import { randomBytes, randomUUID } from "node:crypto";
import type { Firestore, Transaction } from "@google-cloud/firestore";
import { COLLECTIONS } from "@usage-ingestion/shared";
import { withoutSecrets } from "./without-secrets.ts";

/** Who made a change: a person (email), an API key (its id) or an operator of the command line. */
export interface AuditActor {
  type: "user" | "api_key" | "operator";
  id: string;
}

/** Who is changing something and in which request: every store function that changes something takes it. */
export interface ChangeContext {
  actor: AuditActor;
  /** The API request's X-Request-Id, or the command line run's own id. */
  requestId: string;
}

/** One change as the audit log keeps it (docs/management-api.md, "The audit log"). Never edited or deleted. */
export interface AuditEntry {
  id: string;
  /** RFC 3339, UTC. */
  at: string;
  actor: AuditActor;
  /** `<resource>.<verb>`: `api_key.created`, `budget.updated`, `webhook.secret_rotated`. */
  action: string;
  target: { type: string; id: string };
  changes?: { before: unknown; after: unknown };
  request_id: string;
}

export interface AuditChange {
  action: string;
  target: { type: string; id: string };
  before?: unknown;
  after?: unknown;
}

/** Where an organization's entries live, in whichever database the change itself is written. */
export const auditCollection = (db: Firestore, organizationId: string) =>
  db.collection(`${COLLECTIONS.organizations}/${organizationId}/${COLLECTIONS.auditLog}`);

/**
 * Ids sort as the entries were made (the time first, to the millisecond, then 48 random bits), so the log
 * reads newest first by id alone, across databases.
 */
export const auditEntryId = (at: Date) =>
  `${at.getTime().toString().padStart(15, "0")}_${randomBytes(6).toString("hex")}`;

/** The entry for a change, with every secret left out of what it records. */
export function auditEntry(change: ChangeContext, what: AuditChange, at: Date): AuditEntry {
  const entry: AuditEntry = {
    id: auditEntryId(at),
    at: at.toISOString(),
    actor: { type: change.actor.type, id: change.actor.id },
    action: what.action,
    target: { type: what.target.type, id: what.target.id },
    request_id: change.requestId,
  };
  if (what.before !== undefined || what.after !== undefined) {
    // Firestore keeps no `undefined`: what did not exist before (or after) is null.
    entry.changes = { before: withoutSecrets(what.before ?? null), after: withoutSecrets(what.after ?? null) };
  }
  return entry;
}

/**
 * Adds the change's entry to `transaction`, in `db` (the database the change itself is written to): both
 * commit together or neither does. `create`, never `set`: an entry is never overwritten.
 */
export function recordChange(
  transaction: Transaction,
  db: Firestore,
  organizationId: string,
  change: ChangeContext,
  what: AuditChange,
  at = new Date(),
): AuditEntry {
  const entry = auditEntry(change, what, at);
  transaction.create(auditCollection(db, organizationId).doc(entry.id), entry);
  return entry;
}

/**
 * A change made by an operator (the admin command line, a script): `id` names them as well as is known
 * (the OS user, the Google account), `requestId` the run. Store functions called without a context (the
 * test harness, the local stack's seeding) are recorded as an operator named "unknown".
 */
export const operatorChange = (id = "unknown", requestId: string = randomUUID()): ChangeContext => ({
  actor: { type: "operator", id },
  requestId,
});
