import { describe, expect, it } from "vitest";
import {
  CLOCK_ALLOWANCE_MS,
  type CostSummaryDocument,
  dayEndMs,
  daysOfMonth,
  FOLD_AFTER_MS,
  hourEndMs,
  hourOf,
  LATE_AFTER_MS,
  monthEndMs,
  monthSummaryIsFresh,
  needsMark,
  nextMonth,
  summaryCells,
  summaryIsFresh,
  wholeSummary,
} from "./summaries.ts";
import type { SummaryCell } from "./summary-columns.ts";

const part = (fields: Partial<CostSummaryDocument>): CostSummaryDocument => ({
  day: "2026-10-01",
  part: 0,
  parts: 1,
  fold_id: "a",
  read_time: "2026-10-02T00:10:00.000Z",
  cell_count: 0,
  cells: "[]",
  ...fields,
});

describe("day summaries", () => {
  it("mark a change stored more than the allowance after its record was received", () => {
    expect(dayEndMs("2026-10-01")).toBe(Date.parse("2026-10-02T00:00:00.000Z"));
    expect(hourEndMs("2026-10-01T23")).toBe(Date.parse("2026-10-02T00:00:00.000Z"));
    expect(hourOf("2026-10-01T23:59:59.999Z")).toBe("2026-10-01T23");
    expect(LATE_AFTER_MS).toBe(60_000);
    const received = "2026-10-01T12:10:00.000Z";
    const after = (ms: number) => new Date(Date.parse(received) + ms);
    // On time: stored within the allowance, in the open hour.
    expect(needsMark(received, after(0))).toBe(false);
    expect(needsMark(received, after(LATE_AFTER_MS - 1))).toBe(false);
    // Late in the open hour: a summary of the hour's open part may have been read without it.
    expect(needsMark(received, after(LATE_AFTER_MS))).toBe(true);
    expect(needsMark(received, new Date("2026-10-01T12:11:00.000Z"))).toBe(true);
    // Any change once the hour has ended by the allowance (a re-pricing, a late record).
    expect(needsMark(received, new Date("2026-10-01T13:01:00.000Z"))).toBe(true);
    // Received in the hour's last second, stored a second into the next hour: on time.
    expect(needsMark("2026-10-01T23:59:59.000Z", new Date("2026-10-02T00:00:00.000Z"))).toBe(false);
    expect(needsMark("2026-10-01T23:59:59.000Z", new Date("2026-10-02T00:00:59.000Z"))).toBe(true);
  });

  it("mark every change after an open hour's snapshot to a record received before its watermark", () => {
    // The open part's watermark W trails the fold's clock by FOLD_AFTER_MS; its snapshot T is at least the
    // fold's clock less the allowance, a later commit's writer clock at least T less another allowance.
    const fold = Date.parse("2026-10-01T12:33:00.000Z");
    const watermark = fold - FOLD_AFTER_MS;
    const earliestCommit = fold - CLOCK_ALLOWANCE_MS - CLOCK_ALLOWANCE_MS;
    const lastBeforeWatermark = new Date(watermark - 1).toISOString();
    expect(needsMark(lastBeforeWatermark, new Date(earliestCommit))).toBe(true);
  });

  it("are fresh only while no mark is later than their snapshot less the allowance", () => {
    const read = "2026-10-02T00:10:00.000Z";
    expect(summaryIsFresh(read, undefined)).toBe(true);
    expect(summaryIsFresh(read, new Date(Date.parse(read) - CLOCK_ALLOWANCE_MS).toISOString())).toBe(true);
    expect(summaryIsFresh(read, new Date(Date.parse(read) - CLOCK_ALLOWANCE_MS + 1).toISOString())).toBe(false);
    expect(summaryIsFresh(read, "2026-10-03T00:00:00.000Z")).toBe(false);
  });

  it("take the parts of one fold, all of them, or none", () => {
    const a0 = part({ parts: 2, fold_id: "a" });
    const a1 = part({ part: 1, parts: 2, fold_id: "a" });
    expect(wholeSummary([a1, a0])).toEqual([a0, a1]);
    expect(wholeSummary([a0])).toBeNull();
    expect(wholeSummary([a1])).toBeNull();
    // A later fold of one part beside the earlier fold's second part: the later fold alone.
    const b0 = part({ fold_id: "b" });
    expect(wholeSummary([b0, a1])).toEqual([b0]);
    // The earlier fold's first part beside the later fold's second: neither is whole.
    expect(wholeSummary([a0, part({ part: 1, parts: 2, fold_id: "b" })])).toBeNull();
  });

  it("give their cells back as roll-up documents, nanos past 2^53 exact", () => {
    const cell: SummaryCell = [
      "openai",
      "gpt-4o",
      null,
      "c-1",
      { feature: "chat" },
      3,
      1,
      2,
      "9007199254740993",
      [5, 6, 0, 0, 0, 0, 0, 0, 0, 0, 7],
    ];
    const [doc] = summaryCells(part({ cells: JSON.stringify([cell]), cell_count: 1 }));
    expect(doc).toEqual({
      day: "2026-10-01",
      provider: "openai",
      model: "gpt-4o",
      model_tier: null,
      billable_customer_id: "c-1",
      dimensions: { feature: "chat" },
      shard: 0,
      transactions: 3,
      unpriced_transactions: 1,
      conflict_transactions: 2,
      cost_nanos: 9007199254740993n,
      quantities: expect.objectContaining({ input_tokens: 5, output_tokens: 6, custom_units: 7, images: 0 }),
    });
  });
});

describe("day summaries read by a BigInt client", () => {
  it("are whole with their part numbers as bigint", () => {
    const big = (fields: Partial<CostSummaryDocument>) =>
      part(fields as Partial<CostSummaryDocument>) as unknown as Record<string, unknown>;
    const a0 = { ...big({}), part: 0n, parts: 2n } as unknown as CostSummaryDocument;
    const a1 = { ...big({}), part: 1n, parts: 2n } as unknown as CostSummaryDocument;
    expect(wholeSummary([a1, a0])).toEqual([a0, a1]);
  });
});

describe("month summaries", () => {
  it("step by calendar month, with every day of the month", () => {
    expect(nextMonth("2026-12")).toBe("2027-01");
    expect(nextMonth("2028-01")).toBe("2028-02");
    expect(monthEndMs("2028-02")).toBe(Date.parse("2028-03-01T00:00:00.000Z"));
    expect(daysOfMonth("2028-02")).toHaveLength(29);
    expect(daysOfMonth("2026-02").at(-1)).toBe("2026-02-28");
    expect(daysOfMonth("2026-01")[0]).toBe("2026-01-01");
  });

  it("are fresh only while no day of the month is marked since that day's own snapshot", () => {
    const read = (day: string) => `${day}T00:10:00.000Z`;
    const month = {
      month: "2026-02",
      day_read_times: Object.fromEntries(daysOfMonth("2026-02").map((d) => [d, read(d)])),
    };
    const marks = new Map<string, string>();
    expect(monthSummaryIsFresh(month, (day) => marks.get(day))).toBe(true);
    // A mark on the 20th before the 20th's own snapshot (though after the 1st's): still fresh.
    marks.set("2026-02-20", "2026-02-20T00:00:00.000Z");
    expect(monthSummaryIsFresh(month, (day) => marks.get(day))).toBe(true);
    // One after it, less the allowance: stale.
    marks.set("2026-02-20", new Date(Date.parse(read("2026-02-20")) - CLOCK_ALLOWANCE_MS + 1).toISOString());
    expect(monthSummaryIsFresh(month, (day) => marks.get(day))).toBe(false);
    // A day without its snapshot, or no month at all: never used.
    const { "2026-02-28": _last, ...missing } = month.day_read_times;
    expect(monthSummaryIsFresh({ month: "2026-02", day_read_times: missing }, () => undefined)).toBe(false);
    expect(monthSummaryIsFresh({ day_read_times: month.day_read_times }, () => undefined)).toBe(false);
  });
});
