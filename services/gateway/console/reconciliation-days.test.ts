import { describe, expect, it } from "vitest";
import { dayTotals, type ReconciliationRow } from "./reconciliation-days.ts";

const counts = { input_tokens: 0, cached_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 0 };
const row = (day: string, vendor: string, klass: string, ours: string, reported: string | null): ReconciliationRow => ({
  vendor,
  day,
  model: "m",
  our_models: [],
  vendor_models: [],
  class: klass,
  component: null,
  component_cost: null,
  ours: { ...counts, cost_usd: ours, transactions: 1 },
  reported: { ...counts, cost_usd: reported },
  difference: { ...counts, cost_usd: "0" },
});

describe("dayTotals", () => {
  it("sums each vendor's day exactly and gives the drift as a share of the vendor's total", () => {
    const totals = dayTotals([
      row("2026-11-26", "anthropic", "matched", "0.900000000", "0.900000000"),
      row("2026-11-27", "anthropic", "price_mismatch", "0.900000000", "0.975000000"),
      row("2026-11-27", "anthropic", "vendor_only", "0.000000000", "0.000000001"),
      row("2026-11-27", "openai", "ours_only", "0.100000000", null),
    ]);
    expect(totals).toEqual([
      {
        day: "2026-11-27",
        vendor: "anthropic",
        rows: 2,
        ours_usd: "0.900000000",
        vendor_usd: "0.975000001",
        difference_usd: "0.075000001",
        // 75,000,001 of 975,000,001 nano-USD: 7.6923...%.
        drift: "+7.69%",
        awaiting_cost: 0,
      },
      {
        day: "2026-11-27",
        vendor: "openai",
        rows: 1,
        ours_usd: "0.100000000",
        vendor_usd: "0.000000000",
        difference_usd: "-0.100000000",
        drift: null,
        awaiting_cost: 0,
      },
      expect.objectContaining({ day: "2026-11-26", difference_usd: "0.000000000", drift: "0.00%" }),
    ]);
  });

  it("does not judge a day whose vendor cost has not come in for a row the vendor counted", () => {
    const [total] = dayTotals([
      row("2026-11-28", "openai", "matched", "0.500000000", null),
      row("2026-11-28", "openai", "matched", "0.500000000", "0.400000000"),
    ]);
    expect(total).toMatchObject({ vendor_usd: "0.400000000", drift: null, awaiting_cost: 1 });
  });
});
