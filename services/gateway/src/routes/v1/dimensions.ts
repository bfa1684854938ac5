import { type Databases, DimensionsSchema, listDimensions, setDimensions } from "@usage-ingestion/organizations";
import type { Request, Response } from "express";
import { validated } from "../../http/validated.ts";
import { changeOf, organizationOf } from "./change-context.ts";

/** `GET /v1/orgs/{org}/dimensions` (viewer). */
export function getDimensionsRoute(db: Databases) {
  return async (_req: Request, res: Response) => {
    res.status(200).json({ dimensions: await listDimensions(db.records, organizationOf(res)) });
  };
}

/** `PUT /v1/orgs/{org}/dimensions` (admin): the rules of `admin org dimensions set`. */
export function putDimensionsRoute(db: Databases) {
  return async (req: Request, res: Response) => {
    const body = validated(res, DimensionsSchema, req.body);
    if (!body) return;
    const dimensions = await setDimensions(db.records, organizationOf(res), body.dimensions, changeOf(res));
    res.status(200).json({ dimensions });
  };
}
