import {
  CLASSES,
  type DifferenceClass,
  parseReconciliationQuery,
  type ReconciliationReader,
} from "@usage-ingestion/reconciliation";
import { validationFailed } from "@usage-ingestion/shared";
import type { Request, Response } from "express";
import { locals, send } from "../http/send.ts";
import type { ReportCeilings } from "../limits/report-ceilings";

/**
 * `GET /usage/reconciliation` (read keys, or a session): the stored comparisons with the vendors' own
 * reports, one row per vendor, day and model, and how many rows each class holds. Read within the report
 * ceilings (past them, 422 `report_too_large`).
 */
export function usageReconciliation(reader: ReconciliationReader, now: () => Date, ceilings: ReportCeilings) {
  return async (req: Request, res: Response) => {
    const parsed = parseReconciliationQuery(req.query as Record<string, unknown>, now());
    if (!parsed.ok) return send(res, validationFailed(parsed.errors, parsed.message));
    const organizationId = locals(res).organizationId as string;
    const ceiling = ceilings();
    const rows = await ceiling.around(() => reader.rows(organizationId, parsed.query, ceiling));
    const classes = Object.fromEntries(CLASSES.map((name) => [name, 0])) as Record<DifferenceClass, number>;
    for (const row of rows) classes[row.class] += 1;
    res.set("Cache-Control", "no-store");
    res.status(200).json({
      from: parsed.query.from.toISOString().slice(0, 10),
      to: parsed.query.to.toISOString().slice(0, 10),
      provider: parsed.query.vendor ?? null,
      model: parsed.query.model ?? null,
      classes,
      rows,
    });
  };
}
