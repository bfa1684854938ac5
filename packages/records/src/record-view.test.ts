import type { CostRecord } from "@usage-ingestion/shared";
import { describe, expect, it } from "vitest";
import { recordDetail, recordView } from "./record-view.ts";

const stored: CostRecord = {
  message_id: "17290431520471234",
  request_id: "2f1c6a0e-0000-4000-8000-000000000000",
  transaction_index: 3,
  organization_id: "acme",
  received_at: "2026-06-01T12:00:00.000Z",
  processed_at: "2026-06-01T12:00:00.120Z",
  provider: "openai",
  model: "gpt-4o",
  model_tier: null,
  context: { billable_customer_id: "cust-1", feature: "chat" },
  usage: [{ type: "tokens", metrics: { input_tokens: 1200, output_tokens: 300, total_tokens: 1500 } }],
  provider_usage_raw: { id: "chatcmpl-1" },
  transaction_id: "chatcmpl-1",
  duplicate_of: null,
  status: "priced",
  unpriced_reason: null,
  cost_usd: "0.006000000",
  cost_nanos: 6_000_000,
  line_items: [
    {
      usage_type: "tokens",
      component: "input",
      quantity: 1200,
      unit: "token",
      unit_price_usd: "2.5",
      unit_price_per: 1_000_000,
      cost_usd: "0.003000000",
      cost_nanos: 3_000_000,
      price_source: "price table: https://openai.com/api/pricing (read 2026-05-01)",
    },
    {
      usage_type: "tokens",
      component: "output",
      quantity: 300,
      unit: "token",
      unit_price_usd: "10",
      unit_price_per: 1_000_000,
      cost_usd: "0.003000000",
      cost_nanos: 3_000_000,
      price_source: "price table: https://openai.com/api/pricing (read 2026-05-01)",
    },
  ],
  pricing: { source: "catalog", version: "1.2.3", model: "gpt-4o" },
  currency: "USD",
  queue_schema_version: 1,
  dimensions: { feature: "chat" },
  repriced_at: "2026-06-02T00:00:00.000Z",
  revision: 2,
};

describe("recordView", () => {
  it("publishes the record's public fields and nothing the service keeps for itself", () => {
    const view = recordView(stored);
    expect(view).toEqual({
      message_id: "17290431520471234",
      received_at: "2026-06-01T12:00:00.000Z",
      provider: "openai",
      model: "gpt-4o",
      model_tier: null,
      status: "priced",
      unpriced_reason: null,
      cost_usd: "0.006000000",
      provider_reported_cost: null,
      context: { billable_customer_id: "cust-1", feature: "chat" },
      usage: stored.usage,
      transaction_id: "chatcmpl-1",
      duplicate_of: null,
      line_items: stored.line_items.map(({ cost_nanos: _nanos, ...item }) => item),
    });
    expect(JSON.stringify(recordView({ ...stored, internal_note: "x" } as CostRecord))).not.toContain("internal_note");
  });

  it("shows the vendor's own figure from its pico-USD, and null on a record stored before it existed", () => {
    const reported = { ...stored, provider_reported_cost: "0.000123456700", provider_reported_cost_picos: 123_456_700 };
    expect(recordView(reported).provider_reported_cost).toBe("0.000123456700");
    expect(recordView({ ...reported, provider_reported_cost_picos: null }).provider_reported_cost).toBe(
      "0.000123456700",
    );
    expect(recordView(stored).provider_reported_cost).toBeNull();
    expect(
      recordView({ ...stored, provider_reported_cost: null, provider_reported_cost_picos: null })
        .provider_reported_cost,
    ).toBeNull();
  });

  it("takes the cost from the integer nanos, exactly, and has none unless priced", () => {
    expect(recordView({ ...stored, cost_usd: null, cost_nanos: 1 }).cost_usd).toBe("0.000000001");
    expect(recordView({ ...stored, cost_nanos: 12_345_678_901_234 }).cost_usd).toBe("12345.678901234");
    const unpriced = { ...stored, status: "unpriced" as const, cost_usd: null, cost_nanos: null, line_items: [] };
    expect(recordView({ ...unpriced, unpriced_reason: "unknown_model" })).toMatchObject({
      cost_usd: null,
      unpriced_reason: "unknown_model",
      line_items: [],
    });
  });

  it("adds the raw provider usage for one record asked for by its id", () => {
    expect(recordDetail(stored)).toEqual({ ...recordView(stored), provider_usage_raw: { id: "chatcmpl-1" } });
    expect(recordDetail({ ...stored, provider_usage_raw: undefined }).provider_usage_raw).toBeNull();
  });
});
