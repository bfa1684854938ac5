import type { ChangeContext } from "@usage-ingestion/audit";
import type { OrganizationAccess } from "@usage-ingestion/organizations";
import type { Response } from "express";
import { locals } from "../../http/send.ts";

/** The organization of the path, as the access middleware admitted it. */
export const organizationOf = (res: Response): string => (locals(res).access as OrganizationAccess).organizationId;

/** Who is changing something, and in which request: what every store function records in the audit log. */
export function changeOf(res: Response): ChangeContext {
  const context = locals(res);
  return { actor: (context.access as OrganizationAccess).actor, requestId: context.requestId };
}
