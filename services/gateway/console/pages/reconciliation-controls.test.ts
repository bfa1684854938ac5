import { describe, expect, it } from "vitest";
import { mappingsOf, mappingsText } from "./connection-form.ts";
import { dayAfter, reconciliationQueryOf } from "./reconciliation-controls.ts";

const NOW = Date.parse("2026-11-29T04:00:00Z");

describe("the Reconciliation page's query", () => {
  it("is the last 31 UTC days with today when the address names none", () => {
    expect(reconciliationQueryOf(new URLSearchParams(), NOW)).toEqual({
      fromDay: "2026-10-30",
      toDay: "2026-11-29",
      provider: "",
      model: "",
    });
    expect(dayAfter("2026-11-29")).toBe("2026-11-30");
    expect(dayAfter("2028-02-28")).toBe("2028-02-29");
  });

  it("keeps the days, a known vendor and the model it names, days in order", () => {
    const params = new URLSearchParams({ from: "2026-11-20", to: "2026-11-02", provider: "anthropic", model: "m" });
    expect(reconciliationQueryOf(params, NOW)).toEqual({
      fromDay: "2026-11-02",
      toDay: "2026-11-20",
      provider: "anthropic",
      model: "m",
    });
    const odd = new URLSearchParams({ from: "2026-13-45", to: "yesterday", provider: "xai" });
    expect(reconciliationQueryOf(odd, NOW)).toMatchObject({ fromDay: "2026-10-30", toDay: "2026-11-29", provider: "" });
  });
});

describe("a connection's mappings as typed", () => {
  it("reads vendor_id=dimension pairs, and writes them back", () => {
    expect(mappingsOf(" project_id = team, api_key_id=feature ,")).toEqual({
      project_id: "team",
      api_key_id: "feature",
    });
    expect(mappingsOf("")).toEqual({});
    expect(mappingsText({ project_id: "team", api_key_id: "feature" })).toBe("project_id=team, api_key_id=feature");
  });

  it("refuses a part that is not one, naming it", () => {
    expect(() => mappingsOf("project_id=team, workspace")).toThrow(/"workspace" is not vendor_id=dimension/);
    expect(() => mappingsOf("a=b=c")).toThrow(/"a=b=c"/);
  });
});
