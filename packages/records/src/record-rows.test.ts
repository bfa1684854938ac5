import type { CostRecord } from "@usage-ingestion/shared";
import { describe, expect, it } from "vitest";
import { recordRow, revisionOf, WITHDRAWN, withdrawalRow } from "./record-rows.ts";

/** A record as an early worker stored it: no revision, no dimensions, no pricing or line items. */
const early = {
  message_id: "m-1",
  request_id: "r-1",
  transaction_index: 0,
  organization_id: "org-a",
  received_at: "2025-11-01T12:00:00.000Z",
  processed_at: "2025-11-01T12:00:01.000Z",
  provider: "custom",
  model: "house",
  model_tier: null,
  context: { billable_customer_id: "cust-1" },
  usage: [
    { type: "custom", metrics: { units: 2.5 } },
    { type: "tokens", metrics: { input_tokens: 10, output_tokens: 5, total_tokens: 15, cached_tokens: 4 } },
  ],
  provider_usage_raw: null,
  transaction_id: null,
  duplicate_of: null,
  status: "unpriced",
  unpriced_reason: "no custom price",
  cost_usd: null,
  cost_nanos: null,
  currency: "USD",
  queue_schema_version: 1,
} as unknown as CostRecord;

describe("recordRow", () => {
  it("reads a record stored before revisions, dimensions or line items: revision 1, the rest empty", () => {
    expect(revisionOf(early)).toBe(1);
    const row = recordRow(early, new Date("2025-11-02T00:00:00.000Z"));
    expect(row).toMatchObject({
      revision: 1,
      billable_customer_id: "cust-1",
      dimensions: [],
      line_items: [],
      pricing: { source: null, version: null, model: null },
      repriced_at: null,
      published_at: "2025-11-02T00:00:00.000Z",
    });
    // Counted from the stored usage when the worker's own counts are not at hand (the command line).
    expect(row.quantities).toMatchObject({ custom_units: 2.5, input_tokens: 10, output_tokens: 5, cached_tokens: 4 });
  });

  it("lists dimensions by name, keeps a re-pricing's revision, and takes the worker's own quantities", () => {
    const repriced = { ...early, revision: 3, dimensions: { team: null, feature: "chat" } } as CostRecord;
    const quantities = recordRow(early, new Date()).quantities;
    const row = recordRow(repriced, new Date(), { ...quantities, images: 7 });
    expect(row.revision).toBe(3);
    expect(row.dimensions).toEqual([
      { name: "feature", value: "chat" },
      { name: "team", value: null },
    ]);
    expect(row.quantities.images).toBe(7);
  });
});

describe("withdrawalRow", () => {
  it("keeps the record's identity and revision, bills and counts nothing, and is marked withdrawn", () => {
    const priced = {
      ...early,
      revision: 2,
      status: "priced",
      unpriced_reason: null,
      cost_usd: "0.000001500",
      cost_nanos: 1500,
      line_items: [{ usage_type: "custom", component: "units", cost_nanos: 1500 }],
    } as unknown as CostRecord;
    const row = withdrawalRow(priced, new Date("2025-11-02T00:00:00.001Z"));
    expect(row).toMatchObject({
      message_id: "m-1",
      revision: 2,
      organization_id: "org-a",
      received_at: "2025-11-01T12:00:00.000Z",
      published_at: "2025-11-02T00:00:00.001Z",
      status: WITHDRAWN,
      cost_nanos: null,
      cost_usd: null,
      line_items: [],
    });
    expect(Object.values(row.quantities).every((quantity) => quantity === 0)).toBe(true);
    expect(Object.keys(row).sort()).toEqual(Object.keys(recordRow(priced, new Date())).sort());
  });
});
