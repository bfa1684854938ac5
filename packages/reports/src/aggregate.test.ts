import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CostAggregate } from "./aggregate.ts";
import { fromRollup } from "./contribution.ts";
import type { ReportField } from "./report-fields.ts";
import { Sum } from "./sum.ts";
import { type CostSummaryDocument, summaryCells } from "./summaries.ts";
import { type SummaryCell, toColumns } from "./summary-columns.ts";
import { partColumns } from "./summary-parts.ts";

const baseCell = fc.tuple(
  fc.constantFrom("openai" as const, "anthropic" as const),
  fc.constantFrom("gpt-4o", "o3"),
  fc.constantFrom(null, "priority"),
  fc.constantFrom("a", "b", ""),
  fc.constantFrom<Record<string, string | null>>({}, { feature: "chat" }, { feature: null }),
  fc.nat(1_000),
  fc.nat(10),
  fc.nat(10),
  // Up to 2^63: some past 2^53, most as small as a day's cell.
  fc.oneof(fc.bigInt({ min: 0n, max: 10n ** 15n - 1n }), fc.bigInt({ min: 0n, max: 2n ** 63n })).map(String),
  fc.array(fc.nat(1_000_000), { minLength: 11, maxLength: 11 }),
);
/** Some cells with the vendor's own figures (decision 0031), most without, as summaries hold them. */
const cellArbitrary: fc.Arbitrary<SummaryCell> = fc
  .tuple(
    baseCell,
    fc.option(
      fc.tuple(
        fc.integer({ min: 1, max: 1_000 }),
        fc.oneof(fc.bigInt({ min: 0n, max: 10n ** 15n }), fc.bigInt({ min: 0n, max: 2n ** 63n })).map(String),
        fc.oneof(fc.bigInt({ min: 0n, max: 10n ** 15n }), fc.bigInt({ min: 0n, max: 2n ** 63n })).map(String),
      ),
      { nil: undefined },
    ),
  )
  .map(([cell, reported]) => (reported ? ([...cell, reported] as SummaryCell) : cell));

/** A part as rows (written before columns) or as columns. */
const part = (cells: SummaryCell[], day: string, asColumns: boolean): CostSummaryDocument => ({
  day,
  part: 0,
  parts: 1,
  fold_id: "f",
  read_time: "2026-01-02T00:05:00.000Z",
  cell_count: cells.length,
  cells: JSON.stringify(asColumns ? toColumns(cells) : cells),
});

describe("summing summary cells", () => {
  it("gives what the roll-up documents of the same cells give, to the nano-dollar and the vendor's pico-dollar", () => {
    const groupings: ReportField[][] = [
      [],
      ["billable_customer_id", "model"],
      ["context.feature"],
      ["day", "model_tier"],
    ];
    fc.assert(
      fc.property(
        fc.array(cellArbitrary, { maxLength: 60 }),
        fc.constantFrom(...groupings),
        fc.constantFrom({}, { model: "o3" }, { "context.feature": "chat" }),
        (cells, groupBy, filters) => {
          const direct = new CostAggregate(groupBy, filters);
          const asDocuments = new CostAggregate(groupBy, filters);
          for (const [i, day] of ["2026-01-01", "2026-01-02"].entries()) {
            const summary = part(cells.slice(i * 30, i * 30 + 30), day, i === 1);
            direct.addSummaryColumns(partColumns(summary), day);
            for (const doc of summaryCells(summary)) asDocuments.add(fromRollup(doc));
          }
          expect(direct.result()).toEqual(asDocuments.result());
        },
      ),
      { numRuns: 300 },
    );
  });

  it("keeps nanos exact past 2^53, small and large alike", () => {
    const sum = new Sum({});
    const cell = (nanos: string): SummaryCell => ["openai", "m", null, "c", {}, 1, 0, 0, nanos, []];
    // 4,000 cells of 999,999,999,999,999 pass 2^53 many times over; then one just below 2^53, one past it.
    const columns = toColumns([
      ...Array.from({ length: 4_000 }, () => cell("999999999999999")),
      cell("9007199254740991"),
      cell("9007199254740993"),
    ]);
    expect(columns.nanos.slice(-2)).toEqual([9_007_199_254_740_991, "9007199254740993"]);
    for (let i = 0; i < 4_002; i++) sum.addColumns(columns, i);
    expect(sum.nanos()).toBe(4_000n * 999_999_999_999_999n + 9_007_199_254_740_991n + 9_007_199_254_740_993n);
    expect(sum.transactions).toBe(4_002);
  });
});
