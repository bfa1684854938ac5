import { ApiKeyCreateSchema, createApiKey, type Databases } from "@usage-ingestion/organizations";
import type { Request, Response } from "express";
import { validated } from "../../http/validated.ts";
import { changeOf, organizationOf } from "./change-context.ts";

/** `POST /v1/orgs/{org}/api-keys` (admin): 201 with the key's secret, the only time it is ever shown. */
export function createApiKeyRoute(db: Databases) {
  return async (req: Request, res: Response) => {
    const body = validated(res, ApiKeyCreateSchema, req.body);
    if (!body) return;
    const created = await createApiKey(db, organizationOf(res), undefined, undefined, body.scope, {
      name: body.name,
      change: changeOf(res),
    });
    res.set("Cache-Control", "no-store");
    res.status(201).json({ api_key: created.view, secret: created.key });
  };
}
