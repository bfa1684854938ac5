import {
  costReport,
  costReportCsv,
  parseCostQuery,
  type ReportPageTokens,
  type ReportSource,
} from "@usage-ingestion/reports";
import { validationFailed } from "@usage-ingestion/shared";
import type { Request, Response } from "express";
import { locals, send } from "../http/send.ts";
import type { ReportCeilings } from "../limits/report-ceilings";

/**
 * `GET /usage/costs` (read keys): the cost report, as JSON or, with `format=csv`, as CSV, a page at a time
 * by `tokens` (signed; a token that is not ours is a 400).
 */
export function usageCosts(source: ReportSource, now: () => Date, ceilings: ReportCeilings, tokens: ReportPageTokens) {
  return async (req: Request, res: Response) => {
    const organizationId = locals(res).organizationId as string;
    const declared = await source.declaredDimensions(organizationId);
    const parsed = parseCostQuery(req.query as Record<string, unknown>, declared, now(), { tokens, organizationId });
    if (!parsed.ok) return send(res, validationFailed(parsed.errors, parsed.message));
    // A report stopped at a ceiling is thrown on to the app's error map (422, or 429 when the instance is busy).
    const report = await costReport(source, organizationId, parsed.query, declared, ceilings(), tokens);
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
