import type { Firestore } from "@google-cloud/firestore";
import { type ChangeContext, operatorChange, recordChange } from "@usage-ingestion/audit";
import { DOCUMENT_PATHS, NotFoundError, UserError } from "@usage-ingestion/shared";
import { dimensionListProblem } from "./dimension-names.ts";
import type { OrganizationDocument } from "./organization-documents.ts";
import { getOrganization } from "./organizations.ts";

/**
 * Replaces the organization's declared context dimensions. Records written from then on carry them into
 * their roll-up cells; earlier cells keep what was declared when they were written (null for the new ones).
 * The change and its audit entry (`dimensions.updated`) are one transaction.
 */
export async function setDimensions(
  db: Firestore,
  organizationId: string,
  names: string[],
  change: ChangeContext = operatorChange(),
): Promise<string[]> {
  const problem = dimensionListProblem(names);
  if (problem) throw new UserError(problem);
  const ref = db.doc(DOCUMENT_PATHS.organization(organizationId));
  await db.runTransaction(async (transaction) => {
    const snap = await transaction.get(ref);
    if (!snap.exists) throw new NotFoundError(`organization "${organizationId}" does not exist`);
    const before = (snap.data() as OrganizationDocument).dimensions ?? [];
    transaction.update(ref, { dimensions: names });
    recordChange(transaction, db, organizationId, change, {
      action: "dimensions.updated",
      target: { type: "organization", id: organizationId },
      before: { dimensions: before },
      after: { dimensions: names },
    });
  });
  return names;
}

export async function listDimensions(db: Firestore, organizationId: string): Promise<string[]> {
  return (await getOrganization(db, organizationId)).dimensions ?? [];
}
