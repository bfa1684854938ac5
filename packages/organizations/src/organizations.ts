import type { Firestore } from "@google-cloud/firestore";
import { COLLECTIONS, NotFoundError, UserError } from "@usage-ingestion/shared";
import { isAlreadyExists } from "@usage-ingestion/shared/server";
import type { OrganizationDocument, Status } from "./organization-documents.ts";

/** What an organization id may be: also the bound on `{org}` in the management API's paths. */
export const ORG_ID = /^[a-z0-9][a-z0-9_-]{0,62}$/;

const organizations = (db: Firestore) => db.collection(COLLECTIONS.organizations);

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
  if (!snap.exists) throw new NotFoundError(`organization "${id}" does not exist`);
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
