/**
 * What a person may do in an organization (docs/management-api.md): `viewer` reads everything but
 * secrets; `admin` also changes keys, dimensions, prices, budgets and webhooks; `owner` also manages
 * members. An API key of scope `admin` acts with the role `admin` in its own organization only.
 */
export const ROLES = ["viewer", "admin", "owner"] as const;
export type Role = (typeof ROLES)[number];

/** Whether `role` may do what `needed` may: the roles are ordered, each holding the rights below it. */
export const roleAllows = (role: Role, needed: Role): boolean => ROLES.indexOf(role) >= ROLES.indexOf(needed);

/** Who made a change, as the audit log records it: a person, an API key (its id) or an operator. */
export interface Actor {
  type: "user" | "api_key" | "operator";
  /** The person's verified email, the key's id, or the operator's name as the command line knows it. */
  id: string;
}

/**
 * A caller's access to one organization, decided on the server for every request: the organization, the
 * role it acts with and who it is. A caller with none gets 404 for everything under the organization.
 */
export interface OrganizationAccess {
  organizationId: string;
  role: Role;
  actor: Actor;
}
