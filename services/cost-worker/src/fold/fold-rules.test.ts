import { CLOCK_ALLOWANCE_MS, type CostSummaryDocument, type SummaryCell } from "@usage-ingestion/shared";
import { describe, expect, it } from "vitest";
import { splitParts } from "./fold-day.ts";
import { dayStates } from "./fold-due.ts";

const cell = (customer: string): SummaryCell => ["openai", "gpt-4o", null, customer, {}, 1, 0, 0, "1000", [1, 2]];

describe("folding", () => {
  it("splits cells into parts under the byte bound, each cell whole, in order", () => {
    const cells = Array.from({ length: 50 }, (_, i) => cell(`customer-${String(i).padStart(2, "0")}`));
    const one = JSON.stringify(cells[0]).length + 1;
    const parts = splitParts(cells, one * 10 + 2);
    expect(parts.map((p) => p.count)).toEqual([10, 10, 10, 10, 10]);
    for (const p of parts) expect(Buffer.byteLength(p.text)).toBeLessThanOrEqual(one * 10 + 2);
    expect(parts.flatMap((p) => JSON.parse(p.text))).toEqual(cells);
    expect(splitParts([])).toEqual([{ text: "[]", count: 0 }]);
  });

  it("folds unfolded days, folds stale days again once their mark has settled, and leaves fresh ones", () => {
    const summary = (day: string, read_time: string): CostSummaryDocument => ({
      day,
      part: 0,
      parts: 1,
      fold_id: day,
      read_time,
      cell_count: 0,
      cells: "[]",
    });
    const now = Date.parse("2026-10-10T12:00:00.000Z");
    const recent = new Date(now - CLOCK_ALLOWANCE_MS).toISOString();
    const settled = new Date(now - 2 * CLOCK_ALLOWANCE_MS).toISOString();
    const states = dayStates(
      ["2026-10-01", "2026-10-02", "2026-10-03", "2026-10-04"],
      [
        summary("2026-10-02", "2026-10-03T00:05:00.000Z"),
        summary("2026-10-03", "2026-10-04T00:05:00.000Z"),
        summary("2026-10-04", "2026-10-05T00:05:00.000Z"),
      ],
      [
        { day: "2026-10-03", changed_at: recent },
        { day: "2026-10-04", changed_at: settled },
        { day: "2026-10-02", changed_at: "2026-10-02T23:00:00.000Z" },
      ],
      now,
    );
    expect(Object.fromEntries(states)).toEqual({
      "2026-10-01": "unfolded",
      "2026-10-02": "fresh",
      "2026-10-03": "settling",
      "2026-10-04": "stale",
    });
  });
});
