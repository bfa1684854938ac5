import { nextMonth } from "./summaries.ts";

/**
 * Report ranges are half-open, [from, to), on the receive time. Whole UTC months inside the range are read
 * from month summaries (unless the report groups or filters by day), whole UTC days from day summaries or
 * roll-ups; what is left at either edge (a part of a day) from hour summaries for its
 * whole hours and from the records themselves for the rest.
 */
export const DAY_MS = 86_400_000;
export const DEFAULT_RANGE_DAYS = 30;
/** The longest range one report covers: its roll-up reads grow with the days. */
export const MAX_RANGE_DAYS = 400;

export interface TimeRange {
  from: Date;
  to: Date;
}

export interface RangePlan {
  /** Whole UTC days `YYYY-MM-DD`, first inclusive, end exclusive; absent when the range holds none. */
  wholeDays?: { first: string; end: string };
  /** Parts of days at the edges, read from the records. */
  edges: TimeRange[];
}

export const dayText = (date: Date): string => date.toISOString().slice(0, 10);
const floorDay = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;
const ceilDay = (ms: number) => Math.ceil(ms / DAY_MS) * DAY_MS;

export function planRange({ from, to }: TimeRange): RangePlan {
  const start = from.getTime();
  const end = to.getTime();
  const wholeStart = ceilDay(start);
  const wholeEnd = floorDay(end);
  if (wholeStart >= wholeEnd) return { edges: start < end ? [{ from, to }] : [] };
  const edges: TimeRange[] = [];
  if (start < wholeStart) edges.push({ from, to: new Date(wholeStart) });
  if (wholeEnd < end) edges.push({ from: new Date(wholeEnd), to });
  return { wholeDays: { first: dayText(new Date(wholeStart)), end: dayText(new Date(wholeEnd)) }, edges };
}

/** `to` defaults to now; `from` to the start of the UTC day DEFAULT_RANGE_DAYS days before `to`'s day. */
export function defaultRange(now: Date, from?: Date, to?: Date): TimeRange {
  const end = to ?? now;
  return { from: from ?? new Date(floorDay(end.getTime()) - DEFAULT_RANGE_DAYS * DAY_MS), to: end };
}

const HOUR_MS = 3_600_000;
const hourText = (ms: number): string => new Date(ms).toISOString().slice(0, 13);

/** A part of a day: its whole UTC hours (`YYYY-MM-DDTHH`), read from hour summaries, and what is left. */
export interface EdgePlan {
  wholeHours?: { first: string; end: string };
  /** Parts of hours, read from the records. */
  parts: TimeRange[];
}

export function planEdge({ from, to }: TimeRange): EdgePlan {
  const start = from.getTime();
  const end = to.getTime();
  const wholeStart = Math.ceil(start / HOUR_MS) * HOUR_MS;
  const wholeEnd = Math.floor(end / HOUR_MS) * HOUR_MS;
  if (wholeStart >= wholeEnd) return { parts: start < end ? [{ from, to }] : [] };
  const parts: TimeRange[] = [];
  if (start < wholeStart) parts.push({ from, to: new Date(wholeStart) });
  if (wholeEnd < end) parts.push({ from: new Date(wholeEnd), to });
  return { wholeHours: { first: hourText(wholeStart), end: hourText(wholeEnd) }, parts };
}

/**
 * Whole days [first, end) as the whole UTC months inside them (`YYYY-MM`) and the runs of days left
 * before and after (at most one each).
 */
export function splitMonths(
  first: string,
  end: string,
): { months?: { first: string; end: string }; days: Array<{ first: string; end: string }> } {
  const monthStart = first.endsWith("-01") ? first.slice(0, 7) : nextMonth(first.slice(0, 7));
  const monthEnd = end.slice(0, 7);
  if (`${monthStart}-01` >= end || monthStart >= monthEnd) return { days: [{ first, end }] };
  const days: Array<{ first: string; end: string }> = [];
  if (first < `${monthStart}-01`) days.push({ first, end: `${monthStart}-01` });
  if (`${monthEnd}-01` < end) days.push({ first: `${monthEnd}-01`, end });
  return { months: { first: monthStart, end: monthEnd }, days };
}
