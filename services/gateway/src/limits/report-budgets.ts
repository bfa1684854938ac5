import { GroupPool, ReportBudget, type ReportLimits } from "@usage-ingestion/reports";

/** A new budget for each report, all drawing on this instance's one pool of groups. */
export type ReportBudgets = () => ReportBudget;

export function reportBudgets(limits: ReportLimits, groupsPerInstance: number): ReportBudgets {
  // Never below one report's own ceiling: a report alone on the instance is only ever refused by its own.
  const pool = new GroupPool(Math.max(groupsPerInstance, limits.maxGroups));
  return () => new ReportBudget(limits, Date.now, pool);
}
