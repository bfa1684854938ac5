import type { Firestore } from "@google-cloud/firestore";
import { type RecordsFeed, repriceUnpriced } from "@usage-ingestion/records";
import { jsonObject } from "@usage-ingestion/shared";
import type { Request, Response } from "express";
import * as v from "valibot";
import { validated } from "../../http/validated.ts";
import { changeOf, organizationOf } from "./change-context.ts";

export const RepriceSchema = jsonObject(
  v.strictObject({ dry_run: v.optional(v.boolean("must be true or false")) }, "holds an unknown field"),
);

/**
 * `POST /v1/orgs/{org}/reprice` (admin): prices the unpriced records again, as `admin reprice` does, and
 * answers what it priced (or would), what stays unpriced and why. Each record re-priced is audited.
 */
export function repriceRoute(db: Firestore, feed?: RecordsFeed) {
  return async (req: Request, res: Response) => {
    const body = validated(res, RepriceSchema, req.body ?? {});
    if (!body) return;
    const dryRun = body.dry_run ?? false;
    const result = await repriceUnpriced(db, organizationOf(res), {
      dryRun,
      change: changeOf(res),
      ...(feed ? { feed } : {}),
    });
    res.status(200).json({
      dry_run: dryRun,
      examined: result.examined,
      priced: result.priced,
      still_unpriced: result.stillUnpriced,
      unpublished: result.unpublished,
    });
  };
}
