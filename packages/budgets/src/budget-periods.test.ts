import { describe, expect, it } from "vitest";
import type { BudgetPeriod } from "./budget.ts";
import { compactInstant, periodBounds } from "./budget-periods.ts";

const bounds = (period: BudgetPeriod, timeZone: string, at: string) => {
  const { start, end } = periodBounds(period, timeZone, new Date(at));
  return [start.toISOString(), end.toISOString()];
};
const HOUR = 3_600_000;
const hours = (period: BudgetPeriod, timeZone: string, at: string) => {
  const { start, end } = periodBounds(period, timeZone, new Date(at));
  return (end.getTime() - start.getTime()) / HOUR;
};

describe("periodBounds", () => {
  it("counts a UTC day, week (from Monday) and month", () => {
    expect(bounds("day", "UTC", "2026-11-26T20:15:00Z")).toEqual([
      "2026-11-26T00:00:00.000Z",
      "2026-11-27T00:00:00.000Z",
    ]);
    // 2026-11-26 is a Thursday.
    expect(bounds("week", "UTC", "2026-11-26T20:15:00Z")).toEqual([
      "2026-11-23T00:00:00.000Z",
      "2026-11-30T00:00:00.000Z",
    ]);
    expect(bounds("month", "UTC", "2026-12-31T23:59:59.999Z")).toEqual([
      "2026-12-01T00:00:00.000Z",
      "2027-01-01T00:00:00.000Z",
    ]);
  });

  it("has a Paris day of 25 hours when summer time ends (2026-10-25) and of 23 when it starts", () => {
    expect(bounds("day", "Europe/Paris", "2026-10-25T12:00:00Z")).toEqual([
      "2026-10-24T22:00:00.000Z",
      "2026-10-25T23:00:00.000Z",
    ]);
    expect(hours("day", "Europe/Paris", "2026-10-25T12:00:00Z")).toBe(25);
    expect(hours("day", "Europe/Paris", "2026-03-29T12:00:00Z")).toBe(23);
    expect(hours("day", "Europe/Paris", "2026-10-26T12:00:00Z")).toBe(24);
  });

  it("rolls over at local midnight on both sides of the change", () => {
    // 23:30 UTC on the 25th is already the 26th in Paris (UTC+1 by then).
    expect(bounds("day", "Europe/Paris", "2026-10-25T23:30:00Z")).toEqual([
      "2026-10-25T23:00:00.000Z",
      "2026-10-26T23:00:00.000Z",
    ]);
    // 22:30 UTC on the 24th is already the 25th (UTC+2 until the change).
    expect(bounds("day", "Europe/Paris", "2026-10-24T22:30:00Z")[0]).toBe("2026-10-24T22:00:00.000Z");
    expect(bounds("day", "Europe/Paris", "2026-10-24T21:59:59.999Z")[0]).toBe("2026-10-23T22:00:00.000Z");
  });

  it("has a Paris week and month that hold the extra hour", () => {
    expect(bounds("week", "Europe/Paris", "2026-10-25T12:00:00Z")).toEqual([
      "2026-10-18T22:00:00.000Z",
      "2026-10-25T23:00:00.000Z",
    ]);
    expect(hours("month", "Europe/Paris", "2026-10-15T00:00:00Z")).toBe(31 * 24 + 1);
    expect(bounds("month", "Europe/Paris", "2026-10-31T23:30:00Z")).toEqual([
      "2026-10-31T23:00:00.000Z",
      "2026-11-30T23:00:00.000Z",
    ]);
  });

  it("keeps a rolling window of the last N local days, today included", () => {
    expect(bounds("7d", "America/New_York", "2026-11-01T12:00:00Z")).toEqual([
      "2026-10-26T04:00:00.000Z",
      "2026-11-02T05:00:00.000Z",
    ]);
    expect(bounds("1d", "UTC", "2026-11-26T20:15:00Z")).toEqual(bounds("day", "UTC", "2026-11-26T20:15:00Z"));
  });

  it("starts a day where midnight does not exist at the first instant of that day (Santiago)", () => {
    // Chile moved its clocks from 00:00 to 01:00 on 2026-09-06.
    expect(bounds("day", "America/Santiago", "2026-09-06T12:00:00Z")).toEqual([
      "2026-09-06T04:00:00.000Z",
      "2026-09-07T03:00:00.000Z",
    ]);
  });

  it("follows zones off the whole hour", () => {
    expect(bounds("day", "Asia/Kolkata", "2026-09-06T12:00:00Z")).toEqual([
      "2026-09-05T18:30:00.000Z",
      "2026-09-06T18:30:00.000Z",
    ]);
  });
});

describe("compactInstant", () => {
  it("writes the period start of event ids", () => {
    expect(compactInstant(new Date("2026-10-24T22:00:00.000Z"))).toBe("20261024T220000Z");
  });
});
