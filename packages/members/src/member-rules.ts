import type { Role } from "@usage-ingestion/organizations";
import type { MemberDocument } from "./member-documents.ts";
import { MembersError } from "./member-errors.ts";

/**
 * An organization always keeps an owner who can act: removing or demoting the last active owner is
 * refused. Invited owners do not count, since an invitation nobody accepts would leave nobody to manage
 * the members (the operator can still name one with the command line).
 */
export function assertKeepsAnOwner(target: MemberDocument, newRole: Role | undefined, activeOwners: number): void {
  const wasCounted = target.role === "owner" && target.status === "active";
  const staysOwner = newRole === "owner";
  if (wasCounted && !staysOwner && activeOwners <= 1) {
    throw new MembersError(
      "conflict",
      `${target.email} is the organization's last owner; make another member an owner first.`,
    );
  }
}

/** A new member's document: invited until they sign in with that email. */
export const invitedMember = (email: string, role: Role, invitedBy: string, now: Date): MemberDocument => ({
  email,
  role,
  status: "invited",
  invited_by: invitedBy,
  invited_at: now.toISOString(),
  joined_at: null,
});
