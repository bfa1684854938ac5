import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  CLOCK_ALLOWANCE_MS,
  type CostSummaryDocument,
  daysOfMonth,
  FOLD_AFTER_MS,
  monthSummaryIsFresh,
} from "../summaries.ts";
import { cellAt, columnLength, type SummaryCell } from "../summary-columns.ts";
import { partColumns } from "../summary-parts.ts";
import { MAX_PART_BYTES, splitParts } from "./cells.ts";
import { endedPeriods, periodState } from "./fold-due.ts";
import { openHourPart } from "./fold-open-hour.ts";

const cell = (customer: string): SummaryCell => [
  "openai",
  "gpt-4o",
  null,
  customer,
  {},
  1,
  0,
  0,
  "1000",
  [1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0],
];

describe("folding", () => {
  it("folds the open hour up to three minutes ago, to the minute, until the whole hour is due", () => {
    const at = (iso: string) => Date.parse(iso);
    const part = (iso: string) => {
      const open = openHourPart(at(iso));
      return open && { hour: open.hour, until: new Date(open.until).toISOString() };
    };
    expect(part("2026-10-01T12:33:59.999Z")).toEqual({ hour: "2026-10-01T12", until: "2026-10-01T12:30:00.000Z" });
    expect(part("2026-10-01T12:34:00.000Z")).toEqual({ hour: "2026-10-01T12", until: "2026-10-01T12:31:00.000Z" });
    // Three minutes into an hour: nothing of it yet, and the hour before is due whole.
    expect(part("2026-10-01T13:03:00.000Z")).toBeNull();
    expect(endedPeriods(at("2026-10-01T13:03:00.000Z"), { lookbackDays: 0, lookbackHours: 1 }).hours).toEqual([
      "2026-10-01T12",
    ]);
    // Until then the hour before's open part goes on; a minute later the new hour's first minute.
    expect(part("2026-10-01T13:02:59.999Z")).toEqual({ hour: "2026-10-01T12", until: "2026-10-01T12:59:00.000Z" });
    expect(part("2026-10-01T13:04:00.000Z")).toEqual({ hour: "2026-10-01T13", until: "2026-10-01T13:01:00.000Z" });
    expect(FOLD_AFTER_MS).toBe(180_000);
  });

  it("splits cells into compressed parts under the byte bounds, each cell whole, in order", () => {
    const cells = Array.from({ length: 50 }, (_, i) => cell(`customer-${String(i).padStart(2, "0")}`));
    const one = JSON.stringify(cells[0]).length + 1;
    // Ten rows a part at most, as JSON.
    const parts = splitParts(cells, MAX_PART_BYTES, one * 10 + 2);
    expect(parts.map((p) => p.count)).toEqual([10, 10, 10, 10, 10]);
    const back = (bytes: Buffer) => {
      const columns = partColumns({ cells_deflated: bytes });
      return Array.from({ length: columnLength(columns) }, (_, i) => cellAt(columns, i));
    };
    expect(parts.flatMap((p) => back(p.bytes))).toEqual(cells);
    expect(splitParts([]).map((p) => [back(p.bytes), p.count])).toEqual([[[], 0]]);
  });

  it("halves a part until it compresses under the bound", () => {
    // Cells that share little: random customers compress poorly.
    const cells = Array.from({ length: 64 }, () => cell(randomUUID()));
    const parts = splitParts(cells, 600);
    for (const p of parts) expect(p.bytes.length).toBeLessThanOrEqual(600);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.reduce((n, p) => n + p.count, 0)).toBe(64);
  });

  it("folds unfolded periods, folds stale ones again once their mark has settled, and leaves fresh ones", () => {
    const summary = (read_time: string): CostSummaryDocument => ({
      day: "2026-10-02",
      part: 0,
      parts: 1,
      fold_id: "f",
      read_time,
      cell_count: 0,
      cells: "[]",
    });
    const now = Date.parse("2026-10-10T12:00:00.000Z");
    const recent = new Date(now - CLOCK_ALLOWANCE_MS).toISOString();
    const settled = new Date(now - 2 * CLOCK_ALLOWANCE_MS).toISOString();
    const read = "2026-10-03T00:05:00.000Z";
    expect(periodState([], undefined, now)).toBe("unfolded");
    expect(periodState([summary(read)], undefined, now)).toBe("fresh");
    expect(periodState([summary(read)], "2026-10-02T23:00:00.000Z", now)).toBe("fresh");
    expect(periodState([summary(read)], recent, now)).toBe("settling");
    expect(periodState([summary(read)], settled, now)).toBe("stale");
  });

  it("folds days and hours only once they ended three minutes ago, within the look-back", () => {
    const now = Date.parse("2026-10-10T00:02:59.999Z");
    const { days, hours } = endedPeriods(now, { lookbackDays: 2, lookbackHours: 3 });
    expect(days).toEqual(["2026-10-08"]);
    expect(hours).toEqual(["2026-10-09T21", "2026-10-09T22"]);
    const later = endedPeriods(now + 1, { lookbackDays: 2, lookbackHours: 3 });
    expect(later.days).toEqual(["2026-10-08", "2026-10-09"]);
    expect(later.hours).toEqual(["2026-10-09T21", "2026-10-09T22", "2026-10-09T23"]);
  });

  it("folds a month three minutes after it ends, and again while its end is in the day look-back", () => {
    const end = Date.parse("2026-11-01T00:00:00.000Z");
    expect(endedPeriods(end + FOLD_AFTER_MS - 1, { lookbackDays: 35, lookbackHours: 0 }).months).toEqual(["2026-09"]);
    expect(endedPeriods(end + FOLD_AFTER_MS, { lookbackDays: 35, lookbackHours: 0 }).months).toEqual([
      "2026-09",
      "2026-10",
    ]);
    // 2026-11-30: the look-back starts on 2026-10-26, inside October.
    expect(endedPeriods(Date.parse("2026-11-30T12:00:00.000Z"), { lookbackDays: 35, lookbackHours: 0 }).months).toEqual(
      ["2026-10"],
    );
    expect(endedPeriods(Date.parse("2026-12-10T12:00:00.000Z"), { lookbackDays: 35, lookbackHours: 0 }).months).toEqual(
      ["2026-11"],
    );
  });

  it("judges a month summary by each day's snapshot: stale once a day is marked after its own", () => {
    const month: CostSummaryDocument = {
      day: "2026-02-01",
      month: "2026-02",
      day_read_times: Object.fromEntries(daysOfMonth("2026-02").map((d) => [d, `${d}T00:10:00.000Z`])),
      part: 0,
      parts: 1,
      fold_id: "m",
      read_time: "2026-02-01T00:10:00.000Z",
      cell_count: 0,
      cells: "[]",
    };
    const now = Date.parse("2026-03-10T12:00:00.000Z");
    const marks = new Map([["2026-02-20", "2026-02-20T00:00:00.000Z"]]);
    const fresh = (summary: CostSummaryDocument) => monthSummaryIsFresh(summary, (day) => marks.get(day));
    // Marked on the 20th before its snapshot: later than the month's earliest, yet fresh.
    expect(periodState([month], "2026-02-20T00:00:00.000Z", now, fresh)).toBe("fresh");
    marks.set("2026-02-20", "2026-03-10T11:00:00.000Z");
    expect(periodState([month], "2026-03-10T11:00:00.000Z", now, fresh)).toBe("stale");
    expect(periodState([month], new Date(now - CLOCK_ALLOWANCE_MS).toISOString(), now, fresh)).toBe("settling");
  });
});
