import { VendorAnswerError } from "./vendor-http.ts";

export const DAY_MS = 86_400_000;

/** The UTC day a bucket covers, or null when it is not one whole UTC day already over at `now` (a partial day). */
export function wholeDayOf(startMs: number, endMs: number, now: Date): string | null {
  if (!Number.isFinite(startMs) || !Number.isFinite(endMs)) throw new VendorAnswerError("a bucket has no time");
  if (startMs % DAY_MS !== 0 || endMs - startMs !== DAY_MS || endMs > now.getTime()) return null;
  return new Date(startMs).toISOString().slice(0, 10);
}

/** A range of whole UTC days [from, to), as the vendors' reports are asked for it. */
export interface DayRange {
  from: Date;
  to: Date;
}

/**
 * What a reader is asked for: whole UTC days and, when the organization mapped one of the vendor's grouping
 * ids to a context dimension, that id (`project_id`, `workspace_id`): the vendor's figures are then read
 * grouped by it as well (VendorFigure.split).
 */
export interface ReadRequest extends DayRange {
  split?: string;
}

export function checkDayRange(range: DayRange): void {
  const { from, to } = range;
  if (from.getTime() % DAY_MS !== 0 || to.getTime() % DAY_MS !== 0 || to.getTime() <= from.getTime()) {
    throw new RangeError("a reconciliation range is whole UTC days, from before to");
  }
}
