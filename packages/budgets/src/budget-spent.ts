import type { ReportField, ReportSource } from "@usage-ingestion/reports";
import { costReport, DAY_MS, ReportCeiling, type TimeRange } from "@usage-ingestion/reports";
import { type BudgetDocument, scopeFilters } from "./budget.ts";
import { type PeriodBounds, periodBounds } from "./budget-periods.ts";
import { type BudgetStatus, budgetStatus } from "./budget-status.ts";

/**
 * The range a budget's spent is read over: its period from the start, up to the end of the current UTC
 * day when that day ends inside the period. Nothing is received after now, so the spent is the same as up
 * to now; but a whole UTC day is read from its roll-up shards (written with each record, so current), not
 * from the records of its last hour. Only a period ending inside today (a zone off UTC) reads to its end.
 */
export function spentRange(bounds: PeriodBounds, now: Date): TimeRange {
  const endOfToday = Math.ceil((now.getTime() + 1) / DAY_MS) * DAY_MS;
  return { from: bounds.start, to: new Date(Math.min(endOfToday, bounds.end.getTime())) };
}

interface Window {
  range: TimeRange;
  budgets: Array<{ budget: BudgetDocument; bounds: PeriodBounds; filters: Record<string, string> }>;
}

/**
 * Every budget's status at `now`, from the cost report: exact, from the same billable records and roll-ups
 * (duplicates and conflicts never count; a re-pricing moves it). Budgets whose spent is read over the same
 * range share ONE report, grouped by the scope fields they filter on; each sums its own groups. The
 * `ceiling` bounds all of it: past it ReportTooLarge is thrown.
 */
/**
 * One report for the budgets of a window: a field every budget names with the same value is a filter of the
 * query (read once, no group per value), the others are grouped by, keeping apart only the values some
 * budget names (so the groups are bounded by the budgets, not the data); a budget then sums its groups.
 */
function windowQuery(scopes: Array<Partial<Record<ReportField, string>>>) {
  const fields = [...new Set(scopes.flatMap((filters) => Object.keys(filters)))] as ReportField[];
  const shared: Partial<Record<ReportField, string>> = {};
  const groupBy: ReportField[] = [];
  const only: Partial<Record<ReportField, ReadonlySet<string>>> = {};
  for (const field of fields) {
    const values = new Set(scopes.map((filters) => filters[field]));
    const [one] = values;
    if (values.size === 1 && one !== undefined) {
      shared[field] = one;
      continue;
    }
    groupBy.push(field);
    // Only the values some budget names are kept apart: the rest is one group, whatever the data holds.
    only[field] = new Set([...values].filter((value): value is string => value !== undefined));
  }
  return { groupBy, shared, only };
}

export async function budgetStatuses(
  source: ReportSource,
  organizationId: string,
  budgets: readonly BudgetDocument[],
  now: Date,
  ceiling: ReportCeiling = new ReportCeiling(),
): Promise<BudgetStatus[]> {
  const windows = new Map<string, Window>();
  for (const budget of budgets) {
    const bounds = periodBounds(budget.period, budget.time_zone, now);
    const range = spentRange(bounds, now);
    const key = `${range.from.toISOString()}/${range.to.toISOString()}`;
    const window = windows.get(key) ?? { range, budgets: [] };
    window.budgets.push({ budget, bounds, filters: scopeFilters(budget.scope) });
    windows.set(key, window);
  }
  const spent = new Map<BudgetDocument, bigint>();
  for (const window of windows.values()) {
    const { groupBy, shared, only } = windowQuery(window.budgets.map((each) => each.filters));
    const report = await costReport(
      source,
      organizationId,
      {
        ...window.range,
        groupBy,
        filters: shared,
        only,
        format: "json",
        limit: Number.POSITIVE_INFINITY,
        offset: 0,
      },
      [],
      ceiling,
    );
    for (const { budget, filters } of window.budgets) {
      let nanos = 0n;
      for (const group of report.groups) {
        const key = group.key as Record<string, string | null>;
        const counts = Object.entries(filters).every(([field, value]) => field in shared || key[field] === value);
        if (counts) nanos += BigInt(group.cost_nanos);
      }
      spent.set(budget, nanos);
    }
  }
  return budgets.map((budget) => {
    const bounds = periodBounds(budget.period, budget.time_zone, now);
    return budgetStatus(budget, bounds, spent.get(budget) ?? 0n, now);
  });
}
