import type { Firestore } from "@google-cloud/firestore";
import { type ChangeContext, operatorChange, recordChange } from "@usage-ingestion/audit";
import { getOrganization, type OrganizationDocument } from "@usage-ingestion/organizations";
import { DOCUMENT_PATHS, NotFoundError } from "@usage-ingestion/shared";
import type { SecretBox } from "@usage-ingestion/webhooks";
import { type ConnectionDocument, connectionView, credentialContext } from "./connection-documents.ts";
import { checkCredential, checkMappings } from "./connection-input.ts";
import { CONNECTION_VENDORS, type ConnectionVendor } from "./vendors.ts";

const target = (vendor: ConnectionVendor) => ({ type: "connection", id: vendor });
const missing = (organizationId: string, vendor: string) =>
  new NotFoundError(`organization "${organizationId}" has no ${vendor} connection`);

/**
 * Connects the organization to a vendor, or replaces that connection's credential and mappings: the
 * credential is checked, sealed and never read back; the change and its `connection.created` or
 * `connection.updated` entry (which hold no credential) are one transaction.
 */
export async function putConnection(
  db: Firestore,
  box: SecretBox,
  organizationId: string,
  vendor: ConnectionVendor,
  input: { credential: string; mappings?: Record<string, string>; change?: ChangeContext; now?: Date },
): Promise<{ connection: ConnectionDocument; created: boolean }> {
  const credential = checkCredential(vendor, input.credential);
  const now = input.now ?? new Date();
  const ref = db.doc(DOCUMENT_PATHS.connection(organizationId, vendor));
  const orgRef = db.doc(DOCUMENT_PATHS.organization(organizationId));
  return db.runTransaction(async (transaction) => {
    const [organization, stored] = await Promise.all([transaction.get(orgRef), transaction.get(ref)]);
    if (!organization.exists) throw new NotFoundError(`organization "${organizationId}" does not exist`);
    const dimensions = (organization.data() as OrganizationDocument).dimensions ?? [];
    const mappings = checkMappings(vendor, input.mappings ?? {}, dimensions);
    const before = stored.exists ? (stored.data() as ConnectionDocument) : undefined;
    const connection: ConnectionDocument = {
      vendor,
      status: "active",
      created_at: before?.created_at ?? now.toISOString(),
      updated_at: now.toISOString(),
      last_run_at: before?.last_run_at ?? null,
      last_error: null,
      mappings,
      credential: { encrypted: box.seal(credential, credentialContext(organizationId, vendor)) },
    };
    transaction.set(ref, connection);
    recordChange(
      transaction,
      db,
      organizationId,
      input.change ?? operatorChange(),
      {
        action: before ? "connection.updated" : "connection.created",
        target: target(vendor),
        ...(before ? { before: connectionView(before) } : {}),
        after: connectionView(connection),
      },
      now,
    );
    return { connection, created: !before };
  });
}

/** The organization's connections, one per vendor at most, in the vendors' order. */
export async function listConnections(db: Firestore, organizationId: string): Promise<ConnectionDocument[]> {
  await getOrganization(db, organizationId);
  const snap = await db.collection(DOCUMENT_PATHS.connections(organizationId)).limit(CONNECTION_VENDORS.length).get();
  const byVendor = new Map(snap.docs.map((doc) => [doc.id, doc.data() as ConnectionDocument]));
  return CONNECTION_VENDORS.flatMap((vendor) => byVendor.get(vendor) ?? []);
}

/** Removes the connection and its sealed credential, with its `connection.deleted` entry. */
export async function deleteConnection(
  db: Firestore,
  organizationId: string,
  vendor: ConnectionVendor,
  change: ChangeContext = operatorChange(),
  now = new Date(),
): Promise<void> {
  const ref = db.doc(DOCUMENT_PATHS.connection(organizationId, vendor));
  await db.runTransaction(async (transaction) => {
    const stored = await transaction.get(ref);
    if (!stored.exists) throw missing(organizationId, vendor);
    transaction.delete(ref);
    recordChange(
      transaction,
      db,
      organizationId,
      change,
      {
        action: "connection.deleted",
        target: target(vendor),
        before: connectionView(stored.data() as ConnectionDocument),
      },
      now,
    );
  });
}

/** The credential in clear, for the reconciliation run alone: never logged, never answered. */
export async function openCredential(
  db: Firestore,
  box: SecretBox,
  organizationId: string,
  vendor: ConnectionVendor,
): Promise<string> {
  const snap = await db.doc(DOCUMENT_PATHS.connection(organizationId, vendor)).get();
  if (!snap.exists) throw missing(organizationId, vendor);
  const { credential } = snap.data() as ConnectionDocument;
  return box.open(credential.encrypted, credentialContext(organizationId, vendor));
}
