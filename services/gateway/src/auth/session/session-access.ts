import type { Firestore } from "@google-cloud/firestore";
import { activateInvitations, findMember } from "@usage-ingestion/members";
import type { OrganizationAccess } from "@usage-ingestion/organizations";
import type { Request } from "express";
import { locals } from "../../http/send.ts";
import { signedInEmail } from "./session-data.ts";

/** Organization ids as createOrganization makes them; anything else names no organization. */
const ORGANIZATION_ID = /^[a-z0-9][a-z0-9_-]{0,62}$/;

/**
 * The signed-in person's access to one organization: their role as a member, acting as themselves.
 * Undefined when the request has no live session or the person is not a member: the caller answers 404,
 * so an organization's existence is never revealed to a stranger. Read on every request, never cached,
 * so a role changed or a member removed takes effect at once.
 */
export type SessionAccessResolver = (req: Request, organizationId: string) => Promise<OrganizationAccess | undefined>;

export function sessionAccessResolver(db: Firestore): SessionAccessResolver {
  return async (req, organizationId) => {
    const email = signedInEmail(req);
    if (!email || !ORGANIZATION_ID.test(organizationId)) return undefined;
    const member = await findMember(db, organizationId, email);
    if (!member) return undefined;
    // Invited while already signed in: the verified email is here, so the invitation takes effect now.
    // The request's id ties the `member.joined` entry to this request.
    if (member.status === "invited") {
      await activateInvitations(db, email, req.res ? locals(req.res).requestId : undefined);
    }
    return { organizationId, role: member.role, actor: { type: "user", id: email } };
  };
}
