import { parseRangeQuery, type ReportSource, unpricedReport } from "@usage-ingestion/reports";
import { validationFailed } from "@usage-ingestion/shared";
import type { Request, Response } from "express";
import { locals, send } from "../http/send.ts";
import type { ReportCeilings } from "../limits/report-ceilings";

/** `GET /usage/unpriced` (read keys): the models and reasons that left transactions unpriced, with counts. */
export function usageUnpriced(source: ReportSource, now: () => Date, ceilings: ReportCeilings) {
  return async (req: Request, res: Response) => {
    const parsed = parseRangeQuery(req.query as Record<string, unknown>, now());
    if (!parsed.ok) return send(res, validationFailed(parsed.errors, parsed.message));
    const organizationId = locals(res).organizationId as string;
    const report = await unpricedReport(source, organizationId, parsed.query, ceilings());
    res.set("Cache-Control", "no-store");
    res.status(200).json(report);
  };
}
