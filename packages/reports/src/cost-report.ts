import type { CostRecord } from "@usage-ingestion/shared";
import { CostAggregate, type CostFigures, type CostGroup } from "./aggregate.ts";
import { fromRecord, fromRollup } from "./contribution.ts";
import type { ReportPageTokens } from "./page-token.ts";
import { ReportCeiling } from "./report-ceiling";
import type { ReportField } from "./report-fields.ts";
import type { CostQuery } from "./report-query.ts";
import type { ReportSource } from "./report-source.ts";
import { type CellSink, readHourRecords, readWholeDays, readWholeHours, readWholeMonths } from "./summarized.ts";
import { partColumns } from "./summary-parts.ts";
import { planEdge, planRange, splitMonths } from "./time-range.ts";

export interface CostReport {
  from: string;
  to: string;
  group_by: ReportField[];
  filters: CostQuery["filters"];
  /** The organization's declared context dimensions: what `group_by` and the filters may name. */
  dimensions: string[];
  /** This page of the groups; `totals` cover every group. */
  groups: CostGroup[];
  totals: CostFigures;
  /** Present exactly when more groups follow: `page_token` gets them. */
  next_page_token?: string;
}

/**
 * The cost report: whole UTC months from their summaries (unless by day), whole UTC days from their
 * summaries or roll-ups, the whole hours of the days at the
 * edges from their summaries or records, and the parts of hours left from the records (an open hour's from
 * its summary up to its watermark and the records after).
 * Both count a record the same way, so the answer is exact for any range. The same code serves
 * `GET /usage/costs` and `admin costs`. `tokens` sign the next page's token; a query whose groups may not
 * fit one page (a finite `limit`) needs them.
 */
export async function costReport(
  source: ReportSource,
  organizationId: string,
  query: CostQuery,
  dimensions: string[],
  ceiling: ReportCeiling = new ReportCeiling(),
  tokens?: ReportPageTokens,
): Promise<CostReport> {
  return ceiling.around(() => summed(source, organizationId, query, dimensions, ceiling, tokens));
}

async function summed(
  source: ReportSource,
  organizationId: string,
  query: CostQuery,
  dimensions: string[],
  ceiling: ReportCeiling,
  tokens: ReportPageTokens | undefined,
): Promise<CostReport> {
  const plan = planRange(query);
  const aggregate = new CostAggregate(query.groupBy, query.filters, () => ceiling.newGroup(), query.only);
  const cells: CellSink = {
    shard: (doc) => aggregate.add(fromRollup(doc)),
    summary: (part) => aggregate.addSummaryColumns(partColumns(part), part.day),
  };
  if (plan.wholeDays) {
    const { first, end } = plan.wholeDays;
    // A month summary's cells stand for the whole month: not for a report by day or of one day.
    const byDay = query.groupBy.includes("day") || query.filters.day !== undefined;
    const { months, days } = byDay ? { months: undefined, days: [{ first, end }] } : splitMonths(first, end);
    if (months) await readWholeMonths(source, organizationId, months.first, months.end, ceiling, cells);
    for (const run of days) await readWholeDays(source, organizationId, run.first, run.end, ceiling, cells);
  }
  const addRecord = (record: CostRecord) => {
    const part = fromRecord(record);
    if (part) aggregate.add(part);
  };
  for (const edge of plan.edges) {
    const { wholeHours, parts } = planEdge(edge);
    if (wholeHours) {
      const { first, end } = wholeHours;
      await readWholeHours(source, organizationId, first, end, ceiling, cells, addRecord);
    }
    for (const part of parts) await readHourRecords(source, organizationId, part, ceiling, cells, addRecord);
  }
  const { groups, count, totals } = aggregate.result(query.offset, query.limit);
  const end = query.offset + query.limit;
  if (end < count && !tokens) throw new Error("a cost report answered a page at a time needs its page tokens");
  return {
    from: query.from.toISOString(),
    to: query.to.toISOString(),
    group_by: query.groupBy,
    filters: query.filters,
    dimensions,
    groups,
    totals,
    ...(end < count ? { next_page_token: (tokens as ReportPageTokens).sign(organizationId, query, end) } : {}),
  };
}
