import { describe, expect, it } from "vitest";
import type { DayTotal } from "./reconciliation-days.ts";
import {
  driftJudgement,
  driftThresholdText,
  judgementText,
  plainDecimal,
  ppmOf,
  settingsBody,
  toleranceText,
} from "./reconciliation-settings.ts";

const total = (vendor: string, difference: string, awaiting = 0): DayTotal => ({
  day: "2026-11-27",
  vendor: "anthropic",
  rows: 1,
  ours_usd: "0",
  vendor_usd: vendor,
  difference_usd: difference,
  drift: null,
  awaiting_cost: awaiting,
});
const DEFAULTS = { percent: 1, usd: "0.010000000" };
// The alert judges 2026-11-27 from 06:00 UTC on the 28th.
const SETTLED = Date.parse("2026-11-28T06:00:00Z");

describe("driftJudgement", () => {
  it("marks a day past both the share of the vendor's total and the amount", () => {
    // $0.075 of $0.975 is 7.69%: past 1% ($0.00975) and past $0.01.
    expect(driftJudgement(total("0.975000000", "0.075000000"), DEFAULTS, SETTLED)).toEqual({
      state: "past",
      settled: true,
      judgedFrom: "2026-11-28T06:00",
    });
    // Below either is within: 10% of $0.975 is $0.0975; $0.10 as the amount.
    expect(driftJudgement(total("0.975000000", "0.075000000"), { percent: 10, usd: "0" }, SETTLED).state).toBe(
      "within",
    );
    expect(driftJudgement(total("0.975000000", "-0.075000000"), { percent: 0, usd: "0.1" }, SETTLED).state).toBe(
      "within",
    );
  });

  it("compares exactly, at the boundary, in nano-USD", () => {
    // 1% of $1.000000001 is 10,000,000.01 nano-USD, kept as 10,000,000: one nano more is past, none is not.
    expect(driftJudgement(total("1.000000001", "0.010000001"), { percent: 1, usd: "0" }, SETTLED).state).toBe("past");
    expect(driftJudgement(total("1.000000001", "0.010000000"), { percent: 1, usd: "0" }, SETTLED).state).toBe("within");
    // 0.0001% of $10,000 is one cent exactly.
    expect(driftJudgement(total("10000", "0.01"), { percent: 0.0001, usd: "0" }, SETTLED).state).toBe("within");
    expect(driftJudgement(total("10000", "0.010000001"), { percent: 0.0001, usd: "0" }, SETTLED).state).toBe("past");
  });

  it("judges a day the vendor billed nothing on by the amount alone, and not one awaiting the vendor's cost", () => {
    expect(driftJudgement(total("0", "-0.100000000"), DEFAULTS, SETTLED).state).toBe("past");
    expect(driftJudgement(total("0", "-0.010000000"), DEFAULTS, SETTLED).state).toBe("within");
    expect(driftJudgement(total("0.5", "0.4", 1), DEFAULTS, SETTLED)).toEqual({ state: "awaiting_cost" });
  });

  it("says when a day past the threshold is judged, until it is", () => {
    const early = driftJudgement(total("0.975", "0.075"), DEFAULTS, SETTLED - 1);
    expect(early).toEqual({ state: "past", settled: false, judgedFrom: "2026-11-28T06:00" });
    expect(judgementText(early)).toBe("past the threshold; judged from 2026-11-28 06:00 UTC");
    expect(judgementText(driftJudgement(total("0.975", "0.075"), DEFAULTS, SETTLED))).toBe("past the threshold");
    expect(judgementText({ state: "within" })).toBe("within the threshold");
  });
});

describe("the settings in words and as typed", () => {
  it("reads percents from their digits and drops the zeros that say nothing", () => {
    expect([ppmOf(1), ppmOf(0.5), ppmOf(2.5), ppmOf(0.0001), ppmOf(100)]).toEqual([
      10_000n,
      5_000n,
      25_000n,
      1n,
      1_000_000n,
    ]);
    expect([plainDecimal("0.010000000"), plainDecimal("5.000000000"), plainDecimal("0.000000001")]).toEqual([
      "0.01",
      "5",
      "0.000000001",
    ]);
  });

  it("states the tolerance and the threshold as set", () => {
    expect(toleranceText({ percent: 2.5, usd: "0.050000000" })).toBe(
      "each token count within 2.5% of the vendor's, and the cost within 2.5% or $0.05, whichever is larger",
    );
    expect(driftThresholdText({ percent: 10, usd: "0.000500000" })).toBe(
      "differs from the vendor's by more than 10% of the vendor's total and by more than $0.0005",
    );
  });

  it("sends plain percents as numbers, the rest as typed, and leaves empty fields out", () => {
    expect(
      settingsBody({
        tolerance_percent: " 2.5 ",
        tolerance_usd: "0.05",
        drift_threshold_percent: "1e2",
        drift_threshold_usd: "",
      }),
    ).toEqual({ tolerance_percent: 2.5, tolerance_usd: "0.05", drift_threshold_percent: "1e2" });
  });
});
