import { GroupPool, ReportBudget, type ReportLimits, reportStopped } from "@usage-ingestion/reports";
import type { Response } from "express";
import { send } from "../http/send.ts";

/** A new budget for each report, all drawing on this instance's one pool of groups. */
export type ReportBudgets = () => ReportBudget;

export function reportBudgets(limits: ReportLimits, groupsPerInstance: number): ReportBudgets {
  // Never below one report's own ceiling: a report alone on the instance is only ever refused by its own.
  const pool = new GroupPool(Math.max(groupsPerInstance, limits.maxGroups));
  return () => new ReportBudget(limits, Date.now, pool);
}

/**
 * Runs a report for a route. One stopped at a ceiling is answered here (422 `report_too_large` for its own
 * ceilings, 429 when the reports beside it hold the instance's groups) and undefined is returned.
 */
export async function runReport<T>(res: Response, report: () => Promise<T>): Promise<T | undefined> {
  try {
    return await report();
  } catch (error) {
    const reply = reportStopped(error);
    if (!reply) throw error;
    send(res, reply);
    return undefined;
  }
}
