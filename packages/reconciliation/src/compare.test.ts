import { decimal, toNanosPer } from "@usage-ingestion/shared";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CLASSES,
  type Comparison,
  compareFigures,
  mismatchedComponent,
  type OurFigure,
  type OurRate,
} from "./compare.ts";
import { TOKEN_KINDS, type TokenCounts, type VendorFigure, zeroTokens } from "./vendor-figures.ts";

const tokens = (input: number, output: number, cached = 0, writes = 0): TokenCounts => ({
  input_tokens: input,
  output_tokens: output,
  cached_tokens: cached,
  cache_creation_input_tokens: writes,
});
const ours = (day: string, model: string, t: TokenCounts, nanos: bigint): OurFigure => ({
  day,
  model,
  tokens: t,
  cost_nanos: nanos,
  transactions: 1,
  unpriced_transactions: 0,
});
const vendor = (day: string, model: string, t: TokenCounts, nanos: bigint | null, components = {}): VendorFigure => ({
  day,
  model,
  tokens: t,
  cost_nanos: nanos,
  components,
});
const classOf = (rows: Comparison[], day: string) => rows.find((row) => row.day === day)?.class;

describe("the comparison", () => {
  it("classes each day and model", () => {
    const rows = compareFigures(
      [
        ours("2026-11-01", "gpt-4o-mini", tokens(1000, 100), 195_000_000n),
        ours("2026-11-02", "gpt-4o-mini", tokens(1000, 100), 195_000_000n),
        ours("2026-11-03", "gpt-4o-mini", tokens(1000, 100), 195_000_000n),
        ours("2026-11-04", "gpt-4o-mini", tokens(1000, 100), 195_000_000n),
        ours("2026-11-05", "gpt-4o-mini", tokens(1000, 100), 195_000_000n),
      ],
      [
        // The same within 1%: 1,009 tokens against 1,000, and $0.004 more.
        vendor("2026-11-01", "gpt-4o-mini-2024-07-18", tokens(1009, 100), 199_000_000n),
        // 2% more input: counted differently.
        vendor("2026-11-02", "gpt-4o-mini-2024-07-18", tokens(1020, 100), 195_000_000n),
        // The counts agree, the cost is $0.05 more: more than 1% of $0.245 and more than $0.01.
        vendor("2026-11-03", "gpt-4o-mini-2024-07-18", tokens(1000, 100), 245_000_000n),
        // Billed by the vendor and never reported to us.
        vendor("2026-11-06", "gpt-4o-mini-2024-07-18", tokens(500, 50), 97_500_000n),
        // Usage in, the cost report not yet: compared by counts.
        vendor("2026-11-05", "gpt-4o-mini", tokens(1000, 100), null),
      ],
    );
    expect(rows.map((row) => [row.day, row.model, row.class])).toEqual([
      ["2026-11-01", "gpt-4o-mini", "matched"],
      ["2026-11-02", "gpt-4o-mini", "count_mismatch"],
      ["2026-11-03", "gpt-4o-mini", "price_mismatch"],
      ["2026-11-04", "gpt-4o-mini", "ours_only"],
      ["2026-11-05", "gpt-4o-mini", "matched"],
      ["2026-11-06", "gpt-4o-mini", "vendor_only"],
    ]);
    const third = rows[2] as Comparison;
    expect(third.our_models).toEqual(["gpt-4o-mini"]);
    expect(third.vendor_models).toEqual(["gpt-4o-mini-2024-07-18"]);
    expect(third.difference.cost_nanos).toBe(50_000_000n);
    expect(rows[1]?.difference.tokens.input_tokens).toBe(20);
  });

  it("keeps a small day matched within the $0.01 floor", () => {
    const rows = compareFigures(
      [ours("2026-11-01", "m", tokens(10, 10), 1_000_000n)],
      [vendor("2026-11-01", "m", tokens(10, 10), 9_000_000n)],
    );
    expect(classOf(rows, "2026-11-01")).toBe("matched");
    const strict = compareFigures(
      [ours("2026-11-01", "m", tokens(10, 10), 1_000_000n)],
      [vendor("2026-11-01", "m", tokens(10, 10), 9_000_000n)],
      { ppm: 0, nanos: 0n },
    );
    expect(classOf(strict, "2026-11-01")).toBe("price_mismatch");
  });

  it("splits a day and model by the mapped id, our dimension's value against the vendor's id", () => {
    // gpt-4o-mini at $0.15 per million input and $0.60 output (openai.com/api/pricing, read 2026-11-29):
    // 1,000,000 input and 100,000 output cost $0.15 + $0.06.
    const split = <T extends OurFigure | VendorFigure>(figure: T, value: string | null): T => ({
      ...figure,
      split: value,
    });
    const rows = compareFigures(
      [
        split(ours("2026-11-01", "gpt-4o-mini", tokens(1_000_000, 100_000), 210_000_000n), "proj_a"),
        split(ours("2026-11-01", "gpt-4o-mini", tokens(1_000_000, 100_000), 210_000_000n), null),
      ],
      [
        split(vendor("2026-11-01", "gpt-4o-mini-2024-07-18", tokens(1_000_000, 100_000), 210_000_000n), "proj_a"),
        // The same usage once more, in a project none of our records names: never sent to us.
        split(vendor("2026-11-01", "gpt-4o-mini-2024-07-18", tokens(1_000_000, 100_000), 210_000_000n), "proj_b"),
      ],
    );
    expect(rows.map((row) => [row.split, row.class, row.difference.cost_nanos])).toEqual([
      [null, "ours_only", -210_000_000n],
      ["proj_a", "matched", 0n],
      ["proj_b", "vendor_only", 210_000_000n],
    ]);
    // Not split, the same figures are one row, and they agree.
    const whole = compareFigures(
      [ours("2026-11-01", "gpt-4o-mini", tokens(2_000_000, 200_000), 420_000_000n)],
      [vendor("2026-11-01", "gpt-4o-mini-2024-07-18", tokens(2_000_000, 200_000), 420_000_000n)],
    );
    expect(whole.map((row) => [row.split, row.class])).toEqual([[null, "matched"]]);
  });

  it("names the component of a price mismatch from our rate and the vendor's line", () => {
    // Claude Sonnet 4.5's cache reads are $0.30 per million (platform.claude.com/docs/en/about-claude/pricing,
    // read 2026-11-29), billed by the vendor below at 30 cents for 1,000,000; a stale rate of ours, $0.375,
    // makes 37.5 cents of it: $0.075 apart. Input at $3 per million agrees on both sides.
    const row = compareFigures(
      [ours("2026-11-01", "claude-sonnet-4-5", tokens(100_000, 0, 1_000_000), 675_000_000n)],
      [
        vendor("2026-11-01", "claude-sonnet-4-5-20250929", tokens(100_000, 0, 1_000_000), 600_000_000n, {
          input: 300_000_000n,
          cache_read: 300_000_000n,
        }),
      ],
    )[0] as Comparison;
    expect(row.class).toBe("price_mismatch");
    const rates: Record<string, OurRate> = { input: { usd: "3", per: 1e6 }, cache_read: { usd: "0.375", per: 1e6 } };
    const price = (rate: OurRate, count: number) =>
      toNanosPer({ ...decimal(rate.usd), coefficient: decimal(rate.usd).coefficient * BigInt(count) }, rate.per);
    expect(mismatchedComponent("anthropic", row, rates, price)).toEqual({
      component: "cache_read",
      ours_nanos: 375_000_000n,
      vendor_nanos: 300_000_000n,
    });
  });

  it("puts every figure of each side in exactly one class (a property)", () => {
    const day = fc.constantFrom("2026-11-01", "2026-11-02", "2026-11-03");
    const model = fc.constantFrom("a", "b", "b-2025-01-01", "c");
    const counts = fc.record({
      input_tokens: fc.nat(1_000_000),
      output_tokens: fc.nat(1_000_000),
      cached_tokens: fc.nat(1_000_000),
      cache_creation_input_tokens: fc.nat(1_000_000),
    });
    const nanos = fc.bigInt({ min: 0n, max: 10n ** 12n });
    // Split or not: a run split by a mapped id gives each figure a value (null: none); one that is not, none.
    const split = fc.constantFrom(undefined, null, "proj_a", "proj_b");
    const ourFigure = fc.record({ day, model, tokens: counts, cost_nanos: nanos, split }).map((f) => ({
      ...f,
      transactions: 1,
      unpriced_transactions: 0,
    }));
    const vendorFigure = fc.record({
      day,
      model,
      tokens: counts,
      cost_nanos: fc.option(nanos),
      components: fc.constant({}),
      split,
    });
    const tolerance = fc.record({ ppm: fc.nat(100_000), nanos: fc.bigInt({ min: 0n, max: 10n ** 8n }) });
    fc.assert(
      fc.property(
        fc.array(ourFigure, { maxLength: 12 }),
        fc.array(vendorFigure, { maxLength: 12 }),
        tolerance,
        (o, v, t) => {
          const rows = compareFigures(o, v, t);
          const oursTotal = { tokens: zeroTokens(), nanos: 0n };
          const vendorTotal = { tokens: zeroTokens(), nanos: 0n };
          for (const f of o) {
            for (const kind of TOKEN_KINDS) oursTotal.tokens[kind] += f.tokens[kind];
            oursTotal.nanos += f.cost_nanos;
          }
          for (const f of v) {
            for (const kind of TOKEN_KINDS) vendorTotal.tokens[kind] += f.tokens[kind];
            vendorTotal.nanos += f.cost_nanos ?? 0n;
          }
          const byClass = Object.fromEntries(
            CLASSES.map((name) => [name, { ours: zeroTokens(), vendor: zeroTokens(), oursNanos: 0n, vendorNanos: 0n }]),
          );
          for (const row of rows) {
            const sums = byClass[row.class] as (typeof byClass)[string];
            for (const kind of TOKEN_KINDS) {
              sums.ours[kind] += row.ours.tokens[kind];
              sums.vendor[kind] += row.vendor.tokens[kind];
              expect(row.difference.tokens[kind]).toBe(row.vendor.tokens[kind] - row.ours.tokens[kind]);
            }
            sums.oursNanos += row.ours.cost_nanos;
            sums.vendorNanos += row.vendor.cost_nanos ?? 0n;
            if (row.class === "vendor_only") expect(row.ours.cost_nanos).toBe(0n);
            if (row.class === "ours_only") expect(row.vendor.cost_nanos ?? 0n).toBe(0n);
          }
          const classes = Object.values(byClass);
          for (const kind of TOKEN_KINDS) {
            expect(classes.reduce((sum, c) => sum + c.ours[kind], 0)).toBe(oursTotal.tokens[kind]);
            expect(classes.reduce((sum, c) => sum + c.vendor[kind], 0)).toBe(vendorTotal.tokens[kind]);
          }
          expect(classes.reduce((sum, c) => sum + c.oursNanos, 0n)).toBe(oursTotal.nanos);
          expect(classes.reduce((sum, c) => sum + c.vendorNanos, 0n)).toBe(vendorTotal.nanos);
          // One row per day, model and split value compared, whatever the snapshot's date.
          const keys = rows.map((row) => `${row.day}/${row.model}/${row.split}`);
          expect(new Set(keys).size).toBe(keys.length);
        },
      ),
      { seed: 41, numRuns: 300 },
    );
  });
});
