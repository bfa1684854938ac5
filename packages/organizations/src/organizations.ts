import type { Firestore, Transaction } from "@google-cloud/firestore";
import { type ChangeContext, operatorChange, recordChange } from "@usage-ingestion/audit";
import { COLLECTIONS, NotFoundError, UserError } from "@usage-ingestion/shared";
import { isAlreadyExists } from "@usage-ingestion/shared/server";
import type { OrganizationDocument, Status } from "./organization-documents.ts";

/** What an organization id may be: also the bound on `{org}` in the management API's paths. */
export const ORG_ID = /^[a-z0-9][a-z0-9_-]{0,62}$/;

const organizations = (db: Firestore) => db.collection(COLLECTIONS.organizations);

/**
 * Adds a new organization and its `organization.created` entry to `transaction`, so that whatever else the
 * caller writes with it (its first owner) commits with it or not at all. Reads first: a transaction reads
 * before it writes, and an id taken is the caller's mistake, not a failure.
 */
export async function stageOrganization(
  transaction: Transaction,
  db: Firestore,
  id: string,
  name: string,
  change: ChangeContext,
  now: Date,
) {
  if (!ORG_ID.test(id)) {
    throw new UserError(
      `organization id "${id}" must be 1-63 characters of lower-case letters, digits, "-" or "_", starting with a letter or digit`,
    );
  }
  const ref = organizations(db).doc(id);
  if ((await transaction.get(ref)).exists) throw new UserError(`organization "${id}" already exists`);
  const doc: OrganizationDocument = { name, status: "active", created_at: now.toISOString() };
  transaction.create(ref, doc);
  recordChange(
    transaction,
    db,
    id,
    change,
    { action: "organization.created", target: { type: "organization", id }, after: doc },
    now,
  );
  return { id, ...doc };
}

/** Creates an active organization; the change and its audit entry are one transaction. */
export async function createOrganization(
  db: Firestore,
  id: string,
  name = id,
  now = new Date(),
  change: ChangeContext = operatorChange(),
) {
  try {
    return await db.runTransaction((transaction) => stageOrganization(transaction, db, id, name, change, now));
  } catch (error) {
    // Two creations racing: the loser's `create` fails at commit.
    if (isAlreadyExists(error)) throw new UserError(`organization "${id}" already exists`);
    throw error;
  }
}

export async function getOrganization(db: Firestore, id: string): Promise<OrganizationDocument> {
  const snap = await organizations(db).doc(id).get();
  if (!snap.exists) throw new NotFoundError(`organization "${id}" does not exist`);
  return snap.data() as OrganizationDocument;
}

/**
 * Reads the organization in `transaction` (its absence a NotFoundError), for a change to its document
 * that records its entry in the same transaction.
 */
export async function organizationIn(transaction: Transaction, db: Firestore, id: string) {
  const ref = organizations(db).doc(id);
  const snap = await transaction.get(ref);
  if (!snap.exists) throw new NotFoundError(`organization "${id}" does not exist`);
  return { ref, organization: snap.data() as OrganizationDocument };
}

/** Disables or enables an organization: `organization.disabled` / `organization.enabled`, in one transaction. */
export async function setOrganizationStatus(
  db: Firestore,
  id: string,
  status: Status,
  change: ChangeContext = operatorChange(),
) {
  await db.runTransaction(async (transaction) => {
    const { ref, organization } = await organizationIn(transaction, db, id);
    transaction.update(ref, { status });
    recordChange(transaction, db, id, change, {
      action: status === "disabled" ? "organization.disabled" : "organization.enabled",
      target: { type: "organization", id },
      before: { status: organization.status },
      after: { status },
    });
  });
}

export async function listOrganizations(db: Firestore) {
  const snap = await organizations(db).orderBy("created_at").get();
  return snap.docs.map((doc) => ({ id: doc.id, ...(doc.data() as OrganizationDocument) }));
}
