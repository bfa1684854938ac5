import { type Databases, getOrganization } from "@usage-ingestion/organizations";
import type { Request, Response } from "express";
import { organizationOf } from "./change-context.ts";

/** `GET /v1/orgs/{org}` (viewer): the organization's settings as the admin command line sets them. */
export function getOrganizationRoute(db: Databases) {
  return async (_req: Request, res: Response) => {
    const id = organizationOf(res);
    const organization = await getOrganization(db.records, id);
    res.status(200).json({
      id,
      name: organization.name,
      status: organization.status,
      created_at: organization.created_at,
      dimensions: organization.dimensions ?? [],
      limits: organization.limits ?? {},
      otel: organization.otel ?? {},
    });
  };
}
