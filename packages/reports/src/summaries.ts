import { COLLECTIONS } from "@usage-ingestion/shared";
import { type CostRollupDocument, ROLLUP_QUANTITIES } from "./rollups.ts";
import { cellAt, columnLength, readSummaryColumns, type SummaryColumns } from "./summary-columns.ts";

/**
 * Summaries: every cell of one organization's UTC day, or UTC hour, folded into a few documents, so that
 * a report reads a few documents a day (or an hour at its edges) instead of every roll-up shard or record
 * (docs/decisions/0015).
 *
 * - `organizations/{org}/cost_summaries/{day}_{part}` and `hour_summaries/{hour}_{part}`: the cells as of
 *   a consistent snapshot (`read_time`), split in parts that each stay well within Firestore's 1 MiB.
 * - `organizations/{org}/month_summaries/{month}_{part}`: an ended UTC month's cells, folded from its days
 *   (docs/decisions/0020), each day as of its own snapshot (`day_read_times`).
 * - `organizations/{org}/hour_partials/{hour}_{part}`: the open part of an hour not folded whole yet, the
 *   cells of its records received before a watermark (`until`), refolded every minute (docs/decisions/0015).
 * - `organizations/{org}/summary_marks/{hour}_{shard}`: written in the same commit as any late roll-up
 *   change (a record stored a minute after its receipt, a conflict, a re-pricing). A summary whose hour (or day)
 *   has a mark changed after its `read_time`, less the clock allowance, is stale: reports read the shards
 *   or records instead until the fold step folds it again.
 * - `organizations/{org}/summary_state/current`: how far the fold step has folded, so a run reads one
 *   document and the marks, not every summary.
 */
export const SUMMARY_COLLECTIONS = {
  costSummaries: "cost_summaries",
  hourSummaries: "hour_summaries",
  hourPartials: "hour_partials",
  monthSummaries: "month_summaries",
  summaryMarks: "summary_marks",
  summaryState: "summary_state",
} as const;

const underOrganization = (organizationId: string, collection: string) =>
  `${COLLECTIONS.organizations}/${organizationId}/${collection}`;

export const SUMMARY_PATHS = {
  costSummaries: (organizationId: string) => underOrganization(organizationId, SUMMARY_COLLECTIONS.costSummaries),
  costSummary: (organizationId: string, day: string, part: number) =>
    `${SUMMARY_PATHS.costSummaries(organizationId)}/${day}_${part}`,
  hourSummaries: (organizationId: string) => underOrganization(organizationId, SUMMARY_COLLECTIONS.hourSummaries),
  hourSummary: (organizationId: string, hour: string, part: number) =>
    `${SUMMARY_PATHS.hourSummaries(organizationId)}/${hour}_${part}`,
  hourPartials: (organizationId: string) => underOrganization(organizationId, SUMMARY_COLLECTIONS.hourPartials),
  hourPartial: (organizationId: string, hour: string, part: number) =>
    `${SUMMARY_PATHS.hourPartials(organizationId)}/${hour}_${part}`,
  monthSummaries: (organizationId: string) => underOrganization(organizationId, SUMMARY_COLLECTIONS.monthSummaries),
  monthSummary: (organizationId: string, month: string, part: number) =>
    `${SUMMARY_PATHS.monthSummaries(organizationId)}/${month}_${part}`,
  summaryMarks: (organizationId: string) => underOrganization(organizationId, SUMMARY_COLLECTIONS.summaryMarks),
  summaryMark: (organizationId: string, hour: string, shard: number) =>
    `${SUMMARY_PATHS.summaryMarks(organizationId)}/${hour}_${shard}`,
  summaryState: (organizationId: string) =>
    `${underOrganization(organizationId, SUMMARY_COLLECTIONS.summaryState)}/current`,
};

export const HOUR_MS = 3_600_000;
/** The UTC hour of an ISO 8601 time, `YYYY-MM-DDTHH`. */
export const hourOf = (iso: string): string => iso.slice(0, 13);
export const hourText = (ms: number): string => new Date(ms).toISOString().slice(0, 13);
export const hourStartMs = (hour: string): number => Date.parse(`${hour}:00:00.000Z`);
export const hourEndMs = (hour: string): number => hourStartMs(hour) + HOUR_MS;

/**
 * How far apart two machines' clocks may be. Marks carry the writer's clock and summaries Firestore's
 * read time, so every comparison between them leaves this much room, always towards reading the shards.
 */
export const CLOCK_ALLOWANCE_MS = 60_000;
const DAY_MS = 86_400_000;

/** When the UTC day `YYYY-MM-DD` ends, in epoch milliseconds. */
export const dayEndMs = (day: string): number => Date.parse(`${day}T00:00:00.000Z`) + DAY_MS;

/** The UTC month `YYYY-MM` of a day `YYYY-MM-DD` (or of any ISO 8601 time). */
export const monthOf = (dayOrIso: string): string => dayOrIso.slice(0, 7);
/** The first day of a month, `YYYY-MM-01`. */
export const monthFirstDay = (month: string): string => `${month}-01`;
/** The month after `month`. */
export function nextMonth(month: string): string {
  const start = new Date(`${month}-01T00:00:00.000Z`);
  return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1)).toISOString().slice(0, 7);
}
/** When the UTC month `YYYY-MM` ends, in epoch milliseconds. */
export const monthEndMs = (month: string): number => Date.parse(`${nextMonth(month)}-01T00:00:00.000Z`);
/** Every day of a month, `YYYY-MM-DD`, in order. */
export function daysOfMonth(month: string): string[] {
  const days: string[] = [];
  for (let ms = Date.parse(`${month}-01T00:00:00.000Z`); ms < monthEndMs(month); ms += DAY_MS) {
    days.push(new Date(ms).toISOString().slice(0, 10));
  }
  return days;
}

/**
 * A change to a record stored this long after the record was received is late: it leaves a mark. One
 * allowance: an open hour's summary holds the records received before its watermark W and is read at a
 * snapshot T no earlier than W + FOLD_AFTER_MS less the fold's clock error (one allowance); a change
 * committed after T carries a writer's clock no earlier than T less another allowance, so at least
 * W + FOLD_AFTER_MS - 2 allowances = W + one allowance, later than the record's receive time by more than
 * this. A change once the record's hour has ended by the allowance (the ended hours' and days' rule) is
 * late by this rule too.
 */
export const LATE_AFTER_MS = CLOCK_ALLOWANCE_MS;

/**
 * Whether a roll-up change to a record received at `receivedAt` (ISO 8601), written at `at` (the writer's
 * clock), must leave a mark on the record's hour: the change is late (LATE_AFTER_MS), so it may come after
 * the snapshot of a summary of that hour, of its open part (until its watermark), or of its day. Records
 * stored within the allowance of their receipt (almost all) leave none.
 */
export const needsMark = (receivedAt: string, at: Date): boolean =>
  at.getTime() >= Date.parse(receivedAt) + LATE_AFTER_MS;

/**
 * An hour or a day is folded only this long after it ends, and an open hour only up to this long ago (its
 * watermark): every change after the fold's snapshot leaves a mark.
 */
export const FOLD_AFTER_MS = 3 * CLOCK_ALLOWANCE_MS;

export interface SummaryMarkDocument {
  day: string;
  /** `YYYY-MM-DDTHH`. */
  hour: string;
  /** The writer's clock, ISO 8601. */
  changed_at: string;
}

/** One part of a day's, an hour's or a month's summary. The parts of one fold share its `fold_id` and `read_time`. */
export interface CostSummaryDocument {
  /** The day; a month's summary: the month's first day. */
  day: string;
  /** An hour's summary: the hour, `YYYY-MM-DDTHH`. */
  hour?: string;
  /** A month's summary: the month, `YYYY-MM`. */
  month?: string;
  /**
   * A month's summary: each day's snapshot (the read time of the day summary or of the shards it was folded
   * from). `read_time` is then the earliest of them.
   */
  day_read_times?: Record<string, string>;
  /**
   * An open hour's summary (`hour_partials`): its cells are the hour's records received before this time,
   * ISO 8601 (the watermark); the rest of the hour is read from the records.
   */
  until?: string;
  part: number;
  parts: number;
  fold_id: string;
  /** The snapshot the cells were read at, ISO 8601 (Firestore's clock). */
  read_time: string;
  /** Cells in this part. */
  cell_count: number;
  /**
   * The cells' columns (SummaryColumns) as JSON, compressed with raw DEFLATE (shared/src/server
   * `partColumns` reads them): bytes, not a map, so nothing in them is indexed or counted as fields.
   */
  cells_deflated?: Uint8Array;
  /** Parts written before `cells_deflated`: the cells as JSON text (columns, or SummaryCell rows). */
  cells?: string;
}

/** How far the fold step has folded one organization: each period before these is folded (or was). */
export interface SummaryStateDocument {
  /** The first day not folded yet. */
  days_from?: string;
  /** The first hour not folded yet. */
  hours_from?: string;
  /** The first month not folded yet. */
  months_from?: string;
}

/**
 * A summary's cells back as roll-up documents of their day (shard 0), for the reports' one way of counting:
 * its columns given (shared/src/server `partColumns` reads a stored part's), or read from its `cells` text.
 */
export function summaryCells(
  summary: CostSummaryDocument,
  columns: SummaryColumns = readSummaryColumns(summary.cells ?? "[]"),
): CostRollupDocument[] {
  return Array.from({ length: columnLength(columns) }, (_, i) => {
    const [
      provider,
      model,
      model_tier,
      billable_customer_id,
      dimensions,
      transactions,
      unpriced,
      conflicts,
      nanos,
      q,
      reported,
    ] = cellAt(columns, i);
    return {
      day: summary.day,
      provider,
      model,
      model_tier,
      billable_customer_id,
      dimensions,
      shard: 0,
      transactions,
      unpriced_transactions: unpriced,
      conflict_transactions: conflicts,
      cost_nanos: BigInt(nanos),
      quantities: Object.fromEntries(
        ROLLUP_QUANTITIES.map((name, i) => [name, q[i] ?? 0]),
      ) as CostRollupDocument["quantities"],
      ...(reported
        ? {
            provider_reported_transactions: reported[0],
            provider_reported_cost_picos: BigInt(reported[1]),
            cost_nanos_where_provider_reported: BigInt(reported[2]),
          }
        : {}),
    };
  });
}

/**
 * Which parts of a day's summary documents make one whole summary: the parts 0..n-1 of one fold, all
 * present. A fold that wrote fewer parts than the one before it leaves the older fold's extra parts,
 * which another `fold_id` sets apart. Null when no whole summary is there.
 */
export function wholeSummary(parts: readonly CostSummaryDocument[]): CostSummaryDocument[] | null {
  // A client built with `useBigInt` (the reports', the fold's) hands the part numbers back as bigint.
  const first = parts.find((part) => Number(part.part) === 0);
  if (!first) return null;
  const mine = parts.filter((part) => part.fold_id === first.fold_id).sort((a, b) => Number(a.part) - Number(b.part));
  if (mine.length !== Number(first.parts) || mine.some((part, i) => Number(part.part) !== i)) return null;
  return mine;
}

/** Whether a summary read at `readTime` still holds every change, given the day's latest mark (if any). */
export const summaryIsFresh = (readTime: string, latestMark: string | undefined): boolean =>
  latestMark === undefined || Date.parse(latestMark) <= Date.parse(readTime) - CLOCK_ALLOWANCE_MS;

/**
 * Whether an open hour's whole summary (its first part) may stand for the hour's records received before
 * its `until`, in a part of the hour read up to `end` (epoch ms): fresh by the hour's latest mark, and
 * its watermark no later than that end (the records from `until` to `end` are read beside it).
 */
export const partialIsUsable = (summary: CostSummaryDocument, latestMark: string | undefined, end: number): boolean =>
  summary.until !== undefined && Date.parse(summary.until) <= end && summaryIsFresh(summary.read_time, latestMark);

/**
 * Whether a month's summary still holds every change: each of its days' latest mark (if any) no later than
 * that day's own snapshot less the allowance. Per day, not against the earliest snapshot: a month folded
 * from day summaries of different days would otherwise be stale for good after any late record.
 */
export function monthSummaryIsFresh(
  summary: Pick<CostSummaryDocument, "month" | "day_read_times">,
  latestMarkOfDay: (day: string) => string | undefined,
): boolean {
  if (summary.month === undefined || summary.day_read_times === undefined) return false;
  for (const day of daysOfMonth(summary.month)) {
    const readTime = summary.day_read_times[day];
    if (readTime === undefined || !summaryIsFresh(readTime, latestMarkOfDay(day))) return false;
  }
  return true;
}
