import { describe, expect, it } from "vitest";
import { dayRuns } from "./whole-days.ts";

describe("whole days read from shards", () => {
  it("are read as runs of consecutive days, one query each", () => {
    expect(dayRuns([])).toEqual([]);
    expect(dayRuns(["2026-10-30", "2026-10-31", "2026-11-01", "2026-11-03"])).toEqual([
      { first: "2026-10-30", end: "2026-11-02" },
      { first: "2026-11-03", end: "2026-11-04" },
    ]);
  });
});
