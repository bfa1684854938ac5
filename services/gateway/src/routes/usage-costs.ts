import {
  costReport,
  costReportCsv,
  parseCostQuery,
  ReportBudget,
  type ReportLimits,
  type ReportSource,
  ReportTooLarge,
  reportTooLarge,
} from "@usage-ingestion/reports";
import type { Request, Response } from "express";
import { locals, send } from "../http/send.ts";

/** `GET /usage/costs` (read keys): the cost report, as JSON or, with `format=csv`, as CSV. */
export function usageCosts(source: ReportSource, now: () => Date, limits: ReportLimits) {
  return async (req: Request, res: Response) => {
    const organizationId = locals(res).organizationId as string;
    const declared = await source.declaredDimensions(organizationId);
    const parsed = parseCostQuery(req.query as Record<string, unknown>, declared, now());
    if (!parsed.ok) return send(res, parsed.reply);
    let report: Awaited<ReturnType<typeof costReport>>;
    try {
      report = await costReport(source, organizationId, parsed.query, declared, new ReportBudget(limits));
    } catch (error) {
      if (error instanceof ReportTooLarge) return send(res, reportTooLarge(error));
      throw error;
    }
    res.set("Cache-Control", "no-store");
    if (parsed.query.format === "csv") {
      // A download, never a page: the browser saves it under a name that says what it holds.
      const name = `costs_${report.from.slice(0, 10)}_${report.to.slice(0, 10)}.csv`;
      res.status(200).type("text/csv; charset=utf-8").attachment(name).send(costReportCsv(report));
      return;
    }
    res.status(200).json(report);
  };
}
