import type { CostRecord } from "@usage-ingestion/shared";
import { type ReportCeiling, readPages } from "./report-ceiling";
import type { ReportSource } from "./report-source.ts";
import type { CostRollupDocument } from "./rollups.ts";
import {
  type CostSummaryDocument,
  HOUR_MS,
  hourEndMs,
  hourText,
  monthFirstDay,
  monthSummaryIsFresh,
  nextMonth,
  partialIsUsable,
  type SummaryMarkDocument,
  summaryIsFresh,
  wholeSummary,
} from "./summaries.ts";
import { DAY_MS, type TimeRange } from "./time-range.ts";

const dayText = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const startOf = (period: string) =>
  Date.parse(period.length === 10 ? `${period}T00:00:00.000Z` : `${period}:00:00.000Z`);

/** A month (`YYYY-MM`), a day (`YYYY-MM-DD`) or an hour (`YYYY-MM-DDTHH`) and the one after it. */
export const nextPeriod = (period: string): string =>
  period.length === 7
    ? nextMonth(period)
    : period.length === 10
      ? dayText(startOf(period) + DAY_MS)
      : hourText(startOf(period) + HOUR_MS);

/** Every period of [first, end), months, days or hours as `first` is. */
export function periodsOf(first: string, end: string): string[] {
  const periods: string[] = [];
  for (let period = first; period < end; period = nextPeriod(period)) periods.push(period);
  return periods;
}

/** Runs of consecutive periods `[first, end)` among `periods` (sorted): one query per run. */
export function periodRuns(periods: readonly string[]): Array<{ first: string; end: string }> {
  const runs: Array<{ first: string; end: string }> = [];
  for (const period of periods) {
    const last = runs[runs.length - 1];
    if (last && last.end === period) last.end = nextPeriod(period);
    else runs.push({ first: period, end: nextPeriod(period) });
  }
  return runs;
}

/** Where a report's cells go: a roll-up shard's, or a whole summary part's at once. */
export interface CellSink {
  shard: (doc: CostRollupDocument) => void;
  summary: (part: CostSummaryDocument) => void;
}

/** Where one kind of period is read: its marks, its summaries, and what to read where none is fresh. */
interface PeriodReads {
  marks: AsyncIterable<SummaryMarkDocument[]>;
  /** What a mark's latest is kept by: its period, or its day for months. */
  markKey: (mark: SummaryMarkDocument) => string;
  summaries: AsyncIterable<CostSummaryDocument[]>;
  periodOf: (doc: CostSummaryDocument) => string;
  /** Whether a whole summary (its first part) holds every change, given the latest marks by markKey. */
  isFresh: (period: string, summary: CostSummaryDocument, latest: ReadonlyMap<string, string>) => boolean;
  /** The periods [first, end) read without a summary, given the latest marks by markKey. */
  unsummarized: (first: string, end: string, latest: ReadonlyMap<string, string>) => Promise<void>;
}

/**
 * Every cell of the periods [first, end) into `sink`: a period's summary where it is whole and fresh (no
 * change marked since its snapshot), what the summary was folded from otherwise. Either way the same
 * cells and sums, so the answer does not depend on what was folded when. One period's summary is held
 * at a time.
 */
async function readPeriods(
  first: string,
  end: string,
  reads: PeriodReads,
  ceiling: ReportCeiling,
  sink: CellSink,
): Promise<void> {
  const latest = new Map<string, string>();
  await readPages(reads.marks, ceiling, (mark) => {
    const period = reads.markKey(mark);
    const seen = latest.get(period);
    if (seen === undefined || Date.parse(mark.changed_at) > Date.parse(seen)) latest.set(period, mark.changed_at);
  });
  const summarized = new Set<string>();
  let period: string | undefined;
  let parts: CostSummaryDocument[] = [];
  const settle = () => {
    const whole = period === undefined ? null : wholeSummary(parts);
    if (period !== undefined && whole && reads.isFresh(period, whole[0] as CostSummaryDocument, latest)) {
      for (const part of whole) sink.summary(part);
      summarized.add(period);
    }
    parts = [];
  };
  await readPages(reads.summaries, ceiling, (part) => {
    if (reads.periodOf(part) !== period) {
      settle();
      period = reads.periodOf(part);
    }
    parts.push(part);
  });
  settle();
  const rest = periodsOf(first, end).filter((each) => !summarized.has(each));
  for (const run of periodRuns(rest)) await reads.unsummarized(run.first, run.end, latest);
}

/** The whole days [first, end): day summaries, else the days' roll-up shards. */
export const readWholeDays = (
  source: ReportSource,
  organizationId: string,
  first: string,
  end: string,
  ceiling: ReportCeiling,
  sink: CellSink,
) =>
  readPeriods(
    first,
    end,
    {
      marks: source.summaryMarks(organizationId, first, end),
      markKey: (mark) => mark.day,
      summaries: source.costSummaries(organizationId, first, end),
      periodOf: (doc) => doc.day,
      isFresh: (day, summary, latest) => summaryIsFresh(summary.read_time, latest.get(day)),
      unsummarized: (from, to) => readPages(source.costRollups(organizationId, from, to), ceiling, sink.shard),
    },
    ceiling,
    sink,
  );

/** The latest mark of each hour of [first, end). */
async function latestHourMarks(
  source: ReportSource,
  organizationId: string,
  first: string,
  end: string,
  ceiling: ReportCeiling,
): Promise<Map<string, string>> {
  const latest = new Map<string, string>();
  await readPages(source.hourMarks(organizationId, first, end), ceiling, (mark) => {
    const seen = latest.get(mark.hour);
    if (seen === undefined || Date.parse(mark.changed_at) > Date.parse(seen)) latest.set(mark.hour, mark.changed_at);
  });
  return latest;
}

/**
 * The records received in [from, to), where `from` is an hour's start: each hour's open summary
 * (`hour_partials`) where it is whole, fresh and its watermark is no later than the part of the hour read
 * (partialIsUsable) stands for the hour's records received before its watermark, and the records from
 * there on are read; the records alone otherwise (and when `from` is inside an hour). The same cells and
 * sums either way. `latest`: the hours' latest marks, when read already.
 */
export async function readHourRecords(
  source: ReportSource,
  organizationId: string,
  range: TimeRange,
  ceiling: ReportCeiling,
  sink: CellSink,
  addRecord: (record: CostRecord) => void,
  latest?: ReadonlyMap<string, string>,
): Promise<void> {
  const from = range.from.getTime();
  const to = range.to.getTime();
  const records = (start: number, stop: number) =>
    readPages(source.records(organizationId, { from: new Date(start), to: new Date(stop) }), ceiling, addRecord);
  if (from % HOUR_MS !== 0 || from >= to) return records(from, to);
  const first = hourText(from);
  const end = hourText(Math.ceil(to / HOUR_MS) * HOUR_MS);
  const marks = latest ?? (await latestHourMarks(source, organizationId, first, end, ceiling));
  const summarizedUntil = new Map<string, number>();
  let hour: string | undefined;
  let parts: CostSummaryDocument[] = [];
  const settle = () => {
    const whole = hour === undefined ? null : wholeSummary(parts);
    const head = whole?.[0];
    if (hour !== undefined && whole && head?.until !== undefined) {
      if (partialIsUsable(head, marks.get(hour), Math.min(to, hourEndMs(hour)))) {
        for (const part of whole) sink.summary(part);
        summarizedUntil.set(hour, Date.parse(head.until));
      }
    }
    parts = [];
  };
  await readPages(source.hourPartials(organizationId, first, end), ceiling, (part) => {
    const of = part.hour ?? part.day;
    if (of !== hour) {
      settle();
      hour = of;
    }
    parts.push(part);
  });
  settle();
  // The records no summary stands for, in as few ranges (queries) as they make.
  const ranges: Array<[number, number]> = [];
  for (let start = from; start < to; start += HOUR_MS) {
    const at = summarizedUntil.get(hourText(start)) ?? start;
    const stop = Math.min(to, start + HOUR_MS);
    if (at >= stop) continue;
    const last = ranges[ranges.length - 1];
    if (last && last[1] === at) last[1] = stop;
    else ranges.push([at, stop]);
  }
  for (const [start, stop] of ranges) await records(start, stop);
}

/**
 * The whole hours [first, end) (`YYYY-MM-DDTHH`): hour summaries, else the hours' records (with their
 * open summaries, readHourRecords).
 */
export const readWholeHours = (
  source: ReportSource,
  organizationId: string,
  first: string,
  end: string,
  ceiling: ReportCeiling,
  sink: CellSink,
  addRecord: (record: CostRecord) => void,
) =>
  readPeriods(
    first,
    end,
    {
      marks: source.hourMarks(organizationId, first, end),
      markKey: (mark) => mark.hour,
      summaries: source.hourSummaries(organizationId, first, end),
      periodOf: (doc) => doc.hour ?? doc.day,
      isFresh: (hour, summary, latest) => summaryIsFresh(summary.read_time, latest.get(hour)),
      unsummarized: (from, to, latest) =>
        readHourRecords(
          source,
          organizationId,
          { from: new Date(startOf(from)), to: new Date(startOf(to)) },
          ceiling,
          sink,
          addRecord,
          latest,
        ),
    },
    ceiling,
    sink,
  );

/**
 * The whole months [first, end) (`YYYY-MM`): month summaries where whole and fresh (no day of the month
 * marked since that day's snapshot), else the month's days as readWholeDays reads them. A month summary's
 * cells stand for the whole month: only for reports that neither group nor filter by day.
 */
export const readWholeMonths = (
  source: ReportSource,
  organizationId: string,
  first: string,
  end: string,
  ceiling: ReportCeiling,
  sink: CellSink,
) =>
  readPeriods(
    first,
    end,
    {
      marks: source.summaryMarks(organizationId, monthFirstDay(first), monthFirstDay(end)),
      markKey: (mark) => mark.day,
      summaries: source.monthSummaries(organizationId, first, end),
      periodOf: (doc) => doc.month ?? doc.day.slice(0, 7),
      isFresh: (_month, summary, latest) => monthSummaryIsFresh(summary, (day) => latest.get(day)),
      unsummarized: (from, to) =>
        readWholeDays(source, organizationId, monthFirstDay(from), monthFirstDay(to), ceiling, sink),
    },
    ceiling,
    sink,
  );
