import { describe, expect, it } from "vitest";
import { costReportCsv } from "./csv.ts";
import { parseInstant } from "./report-params.ts";
import { defaultRange, planRange, splitMonths } from "./time-range.ts";

const at = (text: string) => new Date(text);

describe("planRange", () => {
  it("reads whole UTC days from roll-ups and the parts of days at the edges from records", () => {
    expect(planRange({ from: at("2026-03-01T12:00:00Z"), to: at("2026-03-04T06:00:00Z") })).toEqual({
      wholeDays: { first: "2026-03-02", end: "2026-03-04" },
      edges: [
        { from: at("2026-03-01T12:00:00Z"), to: at("2026-03-02T00:00:00Z") },
        { from: at("2026-03-04T00:00:00Z"), to: at("2026-03-04T06:00:00Z") },
      ],
    });
  });

  it("has no edges for a range on day boundaries, and no whole day inside one day", () => {
    expect(planRange({ from: at("2026-03-01"), to: at("2026-03-03") })).toEqual({
      wholeDays: { first: "2026-03-01", end: "2026-03-03" },
      edges: [],
    });
    const within = { from: at("2026-03-01T01:00:00Z"), to: at("2026-03-01T02:00:00Z") };
    expect(planRange(within)).toEqual({ edges: [within] });
  });

  it("defaults to now and the start of the day 30 days before", () => {
    expect(defaultRange(at("2026-03-31T10:00:00Z"))).toEqual({
      from: at("2026-03-01T00:00:00Z"),
      to: at("2026-03-31T10:00:00Z"),
    });
  });
});

describe("parseInstant", () => {
  it("takes ISO 8601 dates and date-times with a zone, and refuses days that do not exist", () => {
    expect(parseInstant("2026-03-01")?.toISOString()).toBe("2026-03-01T00:00:00.000Z");
    expect(parseInstant("2026-03-01T02:00:00+02:00")?.toISOString()).toBe("2026-03-01T00:00:00.000Z");
    expect(parseInstant("2024-02-29T00:00Z")?.toISOString()).toBe("2024-02-29T00:00:00.000Z");
    for (const bad of ["2026-02-29", "2026-02-30T00:00:00+02:00", "2026-03-01T00:00:00", "yesterday", "1772323200"]) {
      expect(parseInstant(bad), bad).toBeNull();
    }
  });
});

describe("costReportCsv", () => {
  it("quotes fields with commas, quotes or line breaks and ends with the total", () => {
    const figures = {
      cost_usd: "0.000000001",
      cost_nanos: "1",
      transactions: 1,
      unpriced_transactions: 0,
      conflict_transactions: 0,
      quantities: { input_tokens: 5 } as never,
      provider_reported_transactions: 1,
      provider_reported_cost_usd: "0.000000001200",
      provider_reported_cost_picos: "1200",
      cost_usd_where_provider_reported: "0.000000001",
      cost_nanos_where_provider_reported: "1",
      provider_reported_difference_usd: "0.000000000200",
    };
    const csv = costReportCsv({
      from: "",
      to: "",
      group_by: ["billable_customer_id"],
      filters: {},
      dimensions: [],
      groups: [{ key: { billable_customer_id: 'a,"b"\nc' }, ...figures }],
      totals: figures,
    });
    const lines = csv.split("\r\n");
    expect(lines[1]).toMatch(/^group,"a,""b""\nc",0\.000000001,1,1,0,0,5,/);
    expect(lines[2]).toMatch(/^total,,0\.000000001,1,/);
    // The vendor's own figures come last, beside ours (decision 0031).
    expect(lines[0]).toMatch(
      /,provider_reported_transactions,provider_reported_cost_usd,provider_reported_cost_picos,cost_usd_where_provider_reported,cost_nanos_where_provider_reported,provider_reported_difference_usd$/,
    );
    expect(lines[2]).toMatch(/,1,0\.000000001200,1200,0\.000000001,1,0\.000000000200$/);
  });
});

describe("splitMonths", () => {
  it("reads the whole months inside whole days from month summaries, the days around them from days", () => {
    expect(splitMonths("2026-01-01", "2026-02-01")).toEqual({ months: { first: "2026-01", end: "2026-02" }, days: [] });
    expect(splitMonths("2025-12-15", "2026-03-10")).toEqual({
      months: { first: "2026-01", end: "2026-03" },
      days: [
        { first: "2025-12-15", end: "2026-01-01" },
        { first: "2026-03-01", end: "2026-03-10" },
      ],
    });
  });

  it("has no month in a range shorter than one, or in a month not whole", () => {
    expect(splitMonths("2026-01-02", "2026-02-01")).toEqual({ days: [{ first: "2026-01-02", end: "2026-02-01" }] });
    expect(splitMonths("2026-01-01", "2026-01-31")).toEqual({ days: [{ first: "2026-01-01", end: "2026-01-31" }] });
    expect(splitMonths("2026-01-20", "2026-02-10")).toEqual({ days: [{ first: "2026-01-20", end: "2026-02-10" }] });
  });
});
