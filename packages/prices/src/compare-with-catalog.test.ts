import { describe, expect, it } from "vitest";
import type { PriceDifference } from "./compare-with-catalog.ts";
import { checkDifferences, pricesCheck, type ReviewedDifference } from "./review-differences.ts";
import reviewed from "./table/reviewed-differences.json" with { type: "json" };

const REVIEWED = reviewed.differences as ReviewedDifference[];

describe("npm run prices:check: our prices against the catalog's", () => {
  it("finds no difference that the reviewed list does not explain, and no stale or unreviewed entry", () => {
    const { lines, result } = pricesCheck(REVIEWED);
    expect(result.unexplained.map((d) => lines.find((line) => line.includes(`${d.model} at ${d.at}`)))).toEqual([]);
    expect(result.stale).toEqual([]);
    expect(result.unreviewed).toEqual([]);
    // Every model both price, on several dates, short and long prompts.
    expect(Number(lines[0]?.split(" ")[0])).toBeGreaterThan(150);
  }, 120_000);
});

describe("checking differences against the reviewed list", () => {
  const difference: PriceDifference = {
    provider: "xai",
    model: "grok-x",
    at: "2026-01-01T00:00:00.000Z",
    transaction: "short",
    ours: { usd: "0.010000000" },
    catalog: { usd: "0.020000000" },
  };
  const entry = (ours: string, why = "the vendor page says so"): ReviewedDifference => ({
    provider: "xai",
    model: "grok-x",
    why,
    cases: [
      {
        at: "2026-01-01T00:00:00Z",
        transaction: "short",
        ours,
        catalog: "0.020000000",
        decided_by: "https://x (read 2026-01-02)",
      },
    ],
  });

  it("explains a difference listed with the same amounts", () => {
    expect(checkDifferences([difference], [entry("0.010000000")])).toEqual({
      unexplained: [],
      stale: [],
      unreviewed: [],
    });
  });

  it("fails a new difference, and one whose amounts moved since it was reviewed", () => {
    expect(checkDifferences([difference], []).unexplained).toEqual([difference]);
    const moved = checkDifferences([difference], [entry("0.011000000")]);
    expect(moved.unexplained).toEqual([difference]);
    expect(moved.stale).toEqual(["xai grok-x 2026-01-01T00:00:00.000Z short"]);
  });

  it("fails a reviewed case that no longer differs, and an entry without a reason", () => {
    expect(checkDifferences([], [entry("0.010000000")]).stale).toHaveLength(1);
    expect(checkDifferences([difference], [entry("0.010000000", " ")]).unreviewed).toEqual([
      "xai grok-x: no reason given",
    ]);
  });
});
