import { CostAggregate, type CostFigures, type CostGroup } from "./aggregate.ts";
import { fromRecord, fromRollup } from "./contribution.ts";
import type { ReportField } from "./report-fields.ts";
import type { CostQuery } from "./report-query.ts";
import type { ReportSource } from "./report-source.ts";
import { planRange } from "./time-range.ts";

export interface CostReport {
  from: string;
  to: string;
  group_by: ReportField[];
  filters: CostQuery["filters"];
  /** The organization's declared context dimensions: what `group_by` and the filters may name. */
  dimensions: string[];
  groups: CostGroup[];
  totals: CostFigures;
}

/**
 * The cost report: whole UTC days from the roll-ups, the parts of days at the edges from the records.
 * Both count a record the same way, so the answer is exact for any range. The same code serves
 * `GET /usage/costs` and `admin costs`.
 */
export async function costReport(
  source: ReportSource,
  organizationId: string,
  query: CostQuery,
  dimensions: string[],
): Promise<CostReport> {
  const plan = planRange(query);
  const aggregate = new CostAggregate(query.groupBy, query.filters);
  const [cells, ...edges] = await Promise.all([
    plan.wholeDays ? source.costRollups(organizationId, plan.wholeDays.first, plan.wholeDays.end) : [],
    ...plan.edges.map((edge) => source.records(organizationId, edge)),
  ]);
  for (const cell of cells) aggregate.add(fromRollup(cell));
  for (const record of edges.flat()) {
    const part = fromRecord(record);
    if (part) aggregate.add(part);
  }
  return {
    from: query.from.toISOString(),
    to: query.to.toISOString(),
    group_by: query.groupBy,
    filters: query.filters,
    dimensions,
    ...aggregate.result(),
  };
}
