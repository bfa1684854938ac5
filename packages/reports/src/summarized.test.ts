import { describe, expect, it } from "vitest";
import { nextPeriod, periodRuns, periodsOf } from "./summarized.ts";

describe("periods read without a summary", () => {
  it("are read as runs of consecutive days or hours, one query each", () => {
    expect(periodRuns([])).toEqual([]);
    expect(periodRuns(["2026-10-30", "2026-10-31", "2026-11-01", "2026-11-03"])).toEqual([
      { first: "2026-10-30", end: "2026-11-02" },
      { first: "2026-11-03", end: "2026-11-04" },
    ]);
    expect(periodRuns(["2026-10-31T22", "2026-10-31T23", "2026-11-01T00", "2026-11-01T05"])).toEqual([
      { first: "2026-10-31T22", end: "2026-11-01T01" },
      { first: "2026-11-01T05", end: "2026-11-01T06" },
    ]);
  });

  it("step by day or by hour as they are written", () => {
    expect(nextPeriod("2026-12-31")).toBe("2027-01-01");
    expect(nextPeriod("2026-12-31T23")).toBe("2027-01-01T00");
    expect(nextPeriod("2026-12")).toBe("2027-01");
    expect(periodRuns(["2026-01", "2026-02", "2026-04"])).toEqual([
      { first: "2026-01", end: "2026-03" },
      { first: "2026-04", end: "2026-05" },
    ]);
    expect(periodsOf("2026-11-01T22", "2026-11-02T01")).toEqual(["2026-11-01T22", "2026-11-01T23", "2026-11-02T00"]);
  });
});
