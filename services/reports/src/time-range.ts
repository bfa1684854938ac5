/**
 * Report ranges are half-open, [from, to), on the receive time. Whole UTC days inside the range are read
 * from day summaries or roll-ups; what is left at either edge (a part of a day) from hour summaries for its
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
