import { TZDate } from "@date-fns/tz";
import { type BudgetPeriod, rollingDays } from "./budget.ts";

/** A budget's period: [start, end), instants. */
export interface PeriodBounds {
  start: Date;
  end: Date;
}

/**
 * Midnight of a calendar date in a time zone: the first instant of that day there. `TZDate` turns the
 * zone's wall clock into an instant with the zone's rules (its DST changes included), and a day number
 * past the month's end rolls into the next month, as `Date` does.
 */
const midnight = (year: number, month: number, day: number, timeZone: string): Date =>
  new Date(new TZDate(year, month, day, 0, 0, 0, 0, timeZone).getTime());

/**
 * The period of `period` that holds the instant `at`, in the zone `timeZone`:
 * - `day`: that day, midnight to midnight (23 or 25 hours on a DST change day);
 * - `week`: Monday to Monday (ISO weeks);
 * - `month`: the first of the month to the first of the next;
 * - `Nd`: a rolling window of the last N days, today included: it moves at each midnight.
 */
export function periodBounds(period: BudgetPeriod, timeZone: string, at: Date): PeriodBounds {
  const local = new TZDate(at.getTime(), timeZone);
  const year = local.getFullYear();
  const month = local.getMonth();
  const date = local.getDate();
  const days = rollingDays(period);
  if (days !== null) {
    return {
      start: midnight(year, month, date - (days - 1), timeZone),
      end: midnight(year, month, date + 1, timeZone),
    };
  }
  switch (period) {
    case "day":
      return { start: midnight(year, month, date, timeZone), end: midnight(year, month, date + 1, timeZone) };
    case "week": {
      const sinceMonday = (local.getDay() + 6) % 7;
      return {
        start: midnight(year, month, date - sinceMonday, timeZone),
        end: midnight(year, month, date - sinceMonday + 7, timeZone),
      };
    }
    default:
      return { start: midnight(year, month, 1, timeZone), end: midnight(year, month + 1, 1, timeZone) };
  }
}

/** An instant in UTC as `YYYYMMDDTHHMMSSZ`: the period start in event ids. */
export const compactInstant = (at: Date): string => `${at.toISOString().slice(0, 19).replace(/[-:]/g, "")}Z`;
