import type { Firestore } from "@google-cloud/firestore";
import { DOCUMENT_PATHS, UserError } from "@usage-ingestion/shared";
import { dimensionListProblem } from "./dimension-names.ts";
import { getOrganization } from "./organizations.ts";

/**
 * Replaces the organization's declared context dimensions. Records written from then on carry them into
 * their roll-up cells; earlier cells keep what was declared when they were written (null for the new ones).
 */
export async function setDimensions(db: Firestore, organizationId: string, names: string[]): Promise<string[]> {
  const problem = dimensionListProblem(names);
  if (problem) throw new UserError(problem);
  await getOrganization(db, organizationId);
  await db.doc(DOCUMENT_PATHS.organization(organizationId)).update({ dimensions: names });
  return names;
}

export async function listDimensions(db: Firestore, organizationId: string): Promise<string[]> {
  return (await getOrganization(db, organizationId)).dimensions ?? [];
}
