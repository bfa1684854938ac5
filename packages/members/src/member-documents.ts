import type { Role } from "@usage-ingestion/organizations";

/** `invited` until a person signs in with the invited, verified email; `active` from then on. */
export type MemberStatus = "invited" | "active";

/** `organizations/{org}/members/{email}`: one person's membership of one organization. */
export interface MemberDocument {
  email: string;
  role: Role;
  status: MemberStatus;
  /** The email of the owner who invited them, or `operator:<name>` for the first owner. */
  invited_by: string;
  invited_at: string;
  /** When the invitation took effect; null while it has not. */
  joined_at: string | null;
}

/**
 * `people/{email}`: every organization a person belongs to, kept in the same transaction as the member
 * documents, so that `GET /v1/me` is one read instead of a collection-group query.
 */
export interface PersonDocument {
  organizations: Record<string, { role: Role; status: MemberStatus }>;
}

export const MEMBERS_COLLECTION = "members";
export const PEOPLE_COLLECTION = "people";
export const memberPath = (organizationId: string, email: string) =>
  `organizations/${organizationId}/${MEMBERS_COLLECTION}/${email}`;
export const membersPath = (organizationId: string) => `organizations/${organizationId}/${MEMBERS_COLLECTION}`;
export const personPath = (email: string) => `${PEOPLE_COLLECTION}/${email}`;
