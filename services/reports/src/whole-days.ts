import {
  type CostRollupDocument,
  type CostSummaryDocument,
  summaryCells,
  summaryIsFresh,
  wholeSummary,
} from "@usage-ingestion/shared";
import { type ReportBudget, readPages } from "./report-budget.ts";
import type { ReportSource } from "./report-source.ts";
import { DAY_MS } from "./time-range.ts";

const dayText = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Runs of consecutive days `[first, end)` among `days` (sorted): one shard query per run. */
export function dayRuns(days: readonly string[]): Array<{ first: string; end: string }> {
  const runs: Array<{ first: string; end: string }> = [];
  for (const day of days) {
    const last = runs[runs.length - 1];
    const next = dayText(Date.parse(`${day}T00:00:00.000Z`) + DAY_MS);
    if (last && last.end === day) last.end = next;
    else runs.push({ first: day, end: next });
  }
  return runs;
}

/**
 * Every cell of the whole days [first, end), into `add`: a day's summary where it is whole and fresh (no
 * change marked since its snapshot), that day's roll-up shards otherwise. Either way the same cells and
 * sums, so the answer does not depend on what was folded when. One summary day is held at a time.
 */
export async function readWholeDays(
  source: ReportSource,
  organizationId: string,
  first: string,
  end: string,
  budget: ReportBudget,
  add: (cell: CostRollupDocument) => void,
): Promise<void> {
  const latest = new Map<string, string>();
  await readPages(source.summaryMarks(organizationId, first, end), budget, (mark) => {
    const seen = latest.get(mark.day);
    if (seen === undefined || Date.parse(mark.changed_at) > Date.parse(seen)) latest.set(mark.day, mark.changed_at);
  });

  const summarized = new Set<string>();
  let day: string | undefined;
  let parts: CostSummaryDocument[] = [];
  const settle = () => {
    const whole = day === undefined ? null : wholeSummary(parts);
    if (day !== undefined && whole && summaryIsFresh((whole[0] as CostSummaryDocument).read_time, latest.get(day))) {
      for (const part of whole) for (const cell of summaryCells(part)) add(cell);
      summarized.add(day);
    }
    parts = [];
  };
  await readPages(source.costSummaries(organizationId, first, end), budget, (part) => {
    if (part.day !== day) {
      settle();
      day = part.day;
    }
    parts.push(part);
  });
  settle();

  const rest: string[] = [];
  for (let ms = Date.parse(`${first}T00:00:00.000Z`); ms < Date.parse(`${end}T00:00:00.000Z`); ms += DAY_MS) {
    if (!summarized.has(dayText(ms))) rest.push(dayText(ms));
  }
  for (const run of dayRuns(rest)) {
    await readPages(source.costRollups(organizationId, run.first, run.end), budget, add);
  }
}
