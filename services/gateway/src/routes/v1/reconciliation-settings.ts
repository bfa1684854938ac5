import type { Firestore } from "@google-cloud/firestore";
import {
  getSettings,
  putSettings,
  ReconciliationSettingsSchema,
  type SettingsAnswer,
} from "@usage-ingestion/reconciliation";
import type { Request, Response } from "express";
import { ifMatch } from "../../http/etag.ts";
import { validated } from "../../http/validated.ts";
import { changeOf, organizationOf } from "./change-context.ts";

const withEtag = (res: Response, settings: SettingsAnswer) => res.set("ETag", `"${settings.etag}"`);

/** `GET /v1/orgs/{org}/reconciliation/settings` (viewer): the tolerance and drift threshold, with an etag. */
export function getSettingsRoute(db: Firestore) {
  return async (_req: Request, res: Response) => {
    const settings = await getSettings(db, organizationOf(res));
    withEtag(res, settings).status(200).json(settings);
  };
}

/** `PUT /v1/orgs/{org}/reconciliation/settings` (admin): replaces them (absent fields: defaults), honouring If-Match. */
export function putSettingsRoute(db: Firestore) {
  return async (req: Request, res: Response) => {
    const body = validated(res, ReconciliationSettingsSchema, req.body);
    if (!body) return;
    const settings = await putSettings(db, organizationOf(res), body, changeOf(res), ifMatch(req));
    withEtag(res, settings).status(200).json(settings);
  };
}
