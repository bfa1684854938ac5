import { ApiKeyUpdateSchema, type Databases, updateApiKey } from "@usage-ingestion/organizations";
import type { Request, Response } from "express";
import { validated } from "../../http/validated.ts";
import { changeOf, organizationOf } from "./change-context.ts";

/**
 * `PATCH /v1/orgs/{org}/api-keys/{id}` (admin): `{ status }` and/or `{ name }`. A disabled key is refused
 * everywhere within the key cache's time (KEY_CACHE_TTL_MS, 10 s by default), as after `admin key disable`.
 */
export function updateApiKeyRoute(db: Databases) {
  return async (req: Request, res: Response) => {
    const body = validated(res, ApiKeyUpdateSchema, req.body);
    if (!body) return;
    const changes = { ...(body.status ? { status: body.status } : {}), ...(body.name ? { name: body.name } : {}) };
    const key = await updateApiKey(db, organizationOf(res), String(req.params.id), changes, changeOf(res));
    res.status(200).json(key);
  };
}
