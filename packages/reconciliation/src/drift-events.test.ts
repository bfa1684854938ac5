import { describe, expect, it } from "vitest";
import { compareFigures, DEFAULT_TOLERANCE } from "./compare.ts";
import { driftEvents } from "./drift-events.ts";
import type { TokenCounts } from "./vendor-figures.ts";

const tokens = (input: number): TokenCounts => ({
  input_tokens: input,
  output_tokens: 0,
  cached_tokens: 0,
  cache_creation_input_tokens: 0,
});
const ours = (day: string, nanos: bigint) => ({
  day,
  model: "m",
  tokens: tokens(1000),
  cost_nanos: nanos,
  transactions: 1,
  unpriced_transactions: 0,
});
const vendor = (day: string, nanos: bigint | null) => ({
  day,
  model: "m",
  tokens: tokens(1000),
  cost_nanos: nanos,
  components: {},
});

describe("drift events", () => {
  const comparisons = compareFigures(
    [ours("2026-11-20", 1_000_000_000n), ours("2026-11-21", 1_000_000_000n), ours("2026-11-22", 1_000_000_000n)],
    [
      // $1.02 against $1.00: past 1% of $1.02 ($0.0102) and past $0.01.
      vendor("2026-11-20", 1_020_000_000n),
      // $1.005 against $1.00: within $0.01.
      vendor("2026-11-21", 1_005_000_000n),
      // No cost report yet: not judged.
      vendor("2026-11-22", null),
    ],
  );

  it("alerts each settled day past the threshold, once by its id", () => {
    const events = driftEvents("org", "openai", comparisons, DEFAULT_TOLERANCE, new Date("2026-11-24T12:00:00Z"));
    expect(events.map((event) => [event.id, event.data])).toEqual([
      [
        "reconciliation_openai_2026-11-20",
        expect.objectContaining({
          ours_usd: "1.000000000",
          reported_usd: "1.020000000",
          difference_usd: "0.020000000",
        }),
      ],
    ]);
  });

  it("waits until a day has settled", () => {
    // The 20th ended at midnight; at 05:00 on the 21st its reports are still filling in.
    expect(driftEvents("org", "openai", comparisons, DEFAULT_TOLERANCE, new Date("2026-11-21T05:00:00Z"))).toEqual([]);
    expect(driftEvents("org", "openai", comparisons, DEFAULT_TOLERANCE, new Date("2026-11-21T06:00:00Z"))).toHaveLength(
      1,
    );
  });

  it("waits two days for Google's billing export and Cost Explorer, which fill in later", () => {
    for (const vendor of ["gemini", "bedrock"] as const) {
      expect(driftEvents("org", vendor, comparisons, DEFAULT_TOLERANCE, new Date("2026-11-22T23:00:00Z"))).toEqual([]);
      expect(
        driftEvents("org", vendor, comparisons, DEFAULT_TOLERANCE, new Date("2026-11-23T00:00:00Z")).map((e) => e.id),
      ).toEqual([`reconciliation_${vendor}_2026-11-20`]);
    }
  });
});
