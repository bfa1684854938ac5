import { describe, expect, it } from "vitest";
import { roundRatios } from "./round-ratios.ts";
import { turnOrder } from "./steps/http-pair.ts";

describe("roundRatios", () => {
  it("takes the ratio round by round, then its median, quartiles and extremes", () => {
    // Ratios 1.5, 2, 1.2, 1.25: sorted 1.2, 1.25, 1.5, 2. Median between 1.25 and 1.5; the first quartile
    // at 0.75 of the way from 1.2 to 1.25, the third at 0.25 of the way from 1.5 to 2.
    const ratios = roundRatios([150, 100, 120, 125], [100, 50, 100, 100]);
    expect(ratios?.rounds).toEqual([1.5, 2, 1.2, 1.25]);
    expect(ratios?.median).toBeCloseTo(1.375, 10);
    expect(ratios?.q1).toBeCloseTo(1.2375, 10);
    expect(ratios?.q3).toBeCloseTo(1.625, 10);
    expect(ratios?.min).toBe(1.2);
    expect(ratios?.max).toBe(2);
  });

  it("skips a round whose yardstick read nothing, and gives nothing without rounds", () => {
    expect(roundRatios([90, 80], [0, 40])?.rounds).toEqual([2]);
    expect(roundRatios([], [])).toBeUndefined();
  });
});

describe("turnOrder", () => {
  it("alternates the servers' order from round to round", () => {
    expect(turnOrder(["bare", "gateway"], 1)).toEqual(["bare", "gateway"]);
    expect(turnOrder(["bare", "gateway"], 2)).toEqual(["gateway", "bare"]);
    expect(turnOrder(["bare", "gateway"], 3)).toEqual(["bare", "gateway"]);
  });
});
