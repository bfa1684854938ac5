import type { Firestore } from "@google-cloud/firestore";
import { getRun, listConnections, requestRun, runRange } from "@usage-ingestion/reconciliation";
import { ConflictError } from "@usage-ingestion/shared";
import type { Request, Response } from "express";
import * as v from "valibot";
import { validated } from "../../http/validated.ts";
import { organizationOf } from "./change-context.ts";

const day = v.pipe(v.string("must be a string"), v.regex(/^\d{4}-\d{2}-\d{2}$/, "must be a UTC day YYYY-MM-DD"));
/** The body of `POST .../reconciliation/runs`, exported for /openapi.json. */
export const ReconciliationRunSchema = v.strictObject(
  {
    from: v.pipe(day, v.description("First UTC day, included.")),
    to: v.pipe(day, v.description("UTC day after the last one (excluded); at most 92 days after `from`.")),
  },
  "holds an unknown field",
);

/**
 * `POST /v1/orgs/{org}/reconciliation/runs` (admin): queues a run over whole UTC days; 202 with its id.
 * The worker's reconciliation job takes it up on its next tick.
 */
export function requestRunRoute(db: Firestore, now: () => Date) {
  return async (req: Request, res: Response) => {
    const body = validated(res, ReconciliationRunSchema, req.body);
    if (!body) return;
    const organizationId = organizationOf(res);
    const range = runRange(body.from, body.to, now());
    if ((await listConnections(db, organizationId)).length === 0) {
      throw new ConflictError("the organization is connected to no vendor: PUT .../connections/{vendor} first");
    }
    const run = await requestRun(db, organizationId, range, now());
    res.status(202).location(`${req.baseUrl}${req.path}/${run.id}`).json({ id: run.id, state: run.state });
  };
}

/** `GET /v1/orgs/{org}/reconciliation/runs/{id}` (viewer): the run's state and, once done, what each vendor gave. */
export function getRunRoute(db: Firestore) {
  return async (req: Request, res: Response) => {
    res.status(200).json(await getRun(db, organizationOf(res), String(req.params.id)));
  };
}
