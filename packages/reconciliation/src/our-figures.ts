import { costReport, ReportCeiling, type ReportSource } from "@usage-ingestion/reports";
import type { Provider } from "@usage-ingestion/shared";
import type { OurFigure } from "./compare.ts";
import type { DayRange } from "./vendor-days.ts";

/**
 * Our figures for one provider, per UTC day (of receive time) and model as sent, from the cost report: the
 * same billable records and roll-ups every report reads, so exact under redelivery and re-pricing. Token
 * counts are as the clients sent them, in each vendor's own convention, which is the vendor report's too.
 * With `dimension` (a declared context dimension a connection maps the vendor's id to), per value of it
 * as well: the roll-up cells hold each declared dimension's value (null where a record has none).
 */
export async function ourFigures(
  source: ReportSource,
  organizationId: string,
  provider: Provider,
  range: DayRange,
  ceiling: ReportCeiling = new ReportCeiling(),
  dimension?: string,
): Promise<OurFigure[]> {
  const field = dimension === undefined ? undefined : (`context.${dimension}` as const);
  const report = await costReport(
    source,
    organizationId,
    {
      from: range.from,
      to: range.to,
      groupBy: field ? ["day", "model", field] : ["day", "model"],
      filters: { provider },
      format: "json",
      limit: Number.POSITIVE_INFINITY,
      offset: 0,
    },
    [],
    ceiling,
  );
  return report.groups.map((group) => ({
    day: String(group.key.day),
    model: String(group.key.model),
    ...(field ? { split: group.key[field] ?? null } : {}),
    tokens: {
      input_tokens: group.quantities.input_tokens,
      output_tokens: group.quantities.output_tokens,
      cached_tokens: group.quantities.cached_tokens,
      cache_creation_input_tokens: group.quantities.cache_creation_input_tokens,
    },
    cost_nanos: BigInt(group.cost_nanos),
    transactions: group.transactions,
    unpriced_transactions: group.unpriced_transactions,
  }));
}
