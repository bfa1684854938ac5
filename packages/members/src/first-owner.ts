import type { Firestore } from "@google-cloud/firestore";
import type { ChangeContext } from "@usage-ingestion/audit";
import { stageOrganization } from "@usage-ingestion/organizations";
import { UserError } from "@usage-ingestion/shared";
import { isAlreadyExists } from "@usage-ingestion/shared/server";
import type { MemberDocument } from "./member-documents.ts";
import { readPerson, stageInvitation } from "./member-store.ts";

/**
 * A new organization with its first owner (`admin org create --owner`): the organization, the owner's
 * invitation (taking effect when that person signs in with that verified email) and both audit entries
 * (`organization.created`, `member.invited`) are one transaction, so an organization never exists
 * without someone who can manage its members.
 */
export async function createOrganizationWithOwner(
  db: Firestore,
  organization: { id: string; name: string },
  ownerEmail: string,
  change: ChangeContext,
  now = new Date(),
): Promise<{ organization: Awaited<ReturnType<typeof stageOrganization>>; owner: MemberDocument }> {
  try {
    return await db.runTransaction(async (tx) => {
      // Every read before the first write: the person's index, then the organization (read by staging it).
      const person = await readPerson(tx, db, ownerEmail);
      const created = await stageOrganization(tx, db, organization.id, organization.name, change, now);
      const invitation = { organizationId: created.id, email: ownerEmail, role: "owner" as const, person };
      return { organization: created, owner: stageInvitation(tx, db, invitation, change, now) };
    });
  } catch (error) {
    // Two creations racing: the loser's `create` fails at commit.
    if (isAlreadyExists(error)) throw new UserError(`organization "${organization.id}" already exists`);
    throw error;
  }
}
