/**
 * Report ranges are half-open, [from, to), on the receive time. Whole UTC days inside the range are read
 * from the roll-ups; what is left at either edge (a part of a day) is summed from the records themselves.
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
