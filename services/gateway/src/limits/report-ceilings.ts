import { GroupPool, ReportCeiling, type ReportLimits } from "@usage-ingestion/reports";

/** New ceilings for each report, all drawing on this instance's one pool of groups. */
export type ReportCeilings = () => ReportCeiling;

export function reportCeilings(limits: ReportLimits, groupsPerInstance: number): ReportCeilings {
  // Never below one report's own ceiling: a report alone on the instance is only ever refused by its own.
  const pool = new GroupPool(Math.max(groupsPerInstance, limits.maxGroups));
  return () => new ReportCeiling(limits, Date.now, pool);
}
