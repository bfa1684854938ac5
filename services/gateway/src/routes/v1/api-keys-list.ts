import { type Databases, listApiKeys } from "@usage-ingestion/organizations";
import type { Request, Response } from "express";
import { listBody, pageOf, pageQuery } from "../../http/paging.ts";
import { organizationOf } from "./change-context.ts";

/** `GET /v1/orgs/{org}/api-keys` (viewer): every key, never its secret nor its hash. */
export function listApiKeysRoute(db: Databases) {
  return async (req: Request, res: Response) => {
    const page = pageQuery(req, res);
    if (!page) return;
    const { items, nextPageToken } = pageOf(await listApiKeys(db, organizationOf(res)), page);
    res.status(200).json(listBody("api_keys", items, nextPageToken));
  };
}
