import {
  parseRangeQuery,
  ReportBudget,
  type ReportLimits,
  type ReportSource,
  ReportTooLarge,
  reportTooLarge,
  unpricedReport,
} from "@usage-ingestion/reports";
import type { Request, Response } from "express";
import { locals, send } from "../http/send.ts";

/** `GET /usage/unpriced` (read keys): the models and reasons that left transactions unpriced, with counts. */
export function usageUnpriced(source: ReportSource, now: () => Date, limits: ReportLimits) {
  return async (req: Request, res: Response) => {
    const parsed = parseRangeQuery(req.query as Record<string, unknown>, now());
    if (!parsed.ok) return send(res, parsed.reply);
    let report: Awaited<ReturnType<typeof unpricedReport>>;
    try {
      const organizationId = locals(res).organizationId as string;
      report = await unpricedReport(source, organizationId, parsed.query, new ReportBudget(limits));
    } catch (error) {
      if (error instanceof ReportTooLarge) return send(res, reportTooLarge(error));
      throw error;
    }
    res.set("Cache-Control", "no-store");
    res.status(200).json(report);
  };
}
