import { listAuditLog } from "@usage-ingestion/audit";
import type { Databases } from "@usage-ingestion/organizations";
import type { Request, Response } from "express";
import { listBody, pageQuery } from "../../http/paging.ts";
import { organizationOf } from "./change-context.ts";

/**
 * `GET /v1/orgs/{org}/audit-log` (viewer): every change, newest first, from the records database and the
 * keys database together (docs/decisions/0024).
 */
export function auditLogRoute(db: Databases) {
  return async (req: Request, res: Response) => {
    const page = pageQuery(req, res);
    if (!page) return;
    const { entries, nextPageToken } = await listAuditLog([db.records, db.keys], organizationOf(res), page);
    res.status(200).json(listBody("entries", entries, nextPageToken));
  };
}
