import { type Transaction, validateTransaction } from "@usage-ingestion/shared";
import { describe, expect, it } from "vitest";
import type { CustomPrice } from "./custom-pricing.ts";
import { PRICE_COMPONENT_KEYS, PRICE_COMPONENTS, type PriceComponent } from "./price-components.ts";
import { priceAt } from "./price-usage.ts";

/**
 * Every row of the components table is measured from some usage and priced from a custom price: a row
 * that nothing bills shows up here, not as an unpriced record in production.
 */
const tx = (usage: unknown[]): Transaction => {
  const result = validateTransaction({
    provider: "anthropic",
    model: "all",
    usage,
    context: { billable_customer_id: "c" },
  });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.transaction;
};

/** A custom price with every component at a distinct amount, so each line item shows which one it used. */
const everyPrice = (): CustomPrice => {
  const price: Record<string, unknown> = { provider: "anthropic", model: "all" };
  PRICE_COMPONENT_KEYS.forEach((key, index) => {
    price[key] = key === "per_request" ? { default: `${index + 1}` } : `${index + 1}`;
  });
  return price as CustomPrice;
};

/**
 * Usage that needs every component (by the anthropic convention, where cache reads and writes sit outside
 * input_tokens), in two transactions, (per-side audio and total audio exclude each other). */
const USAGES: unknown[][] = [
  [
    {
      type: "tokens",
      metrics: {
        input_tokens: 10,
        input_audio_tokens: 2,
        input_image_tokens: 2,
        output_tokens: 10,
        output_audio_tokens: 2,
        output_image_tokens: 2,
        total_tokens: 20,
        cache_read_input_tokens: 3,
        cached_audio_tokens: 1,
        cached_image_tokens: 1,
        cache_creation_input_tokens: 4,
        cache_creation_1h_input_tokens: 2,
        reasoning_tokens: 3,
      },
    },
    { type: "images", metrics: { generated: 1 } },
    { type: "audio_seconds", metrics: { input_seconds: 1, output_seconds: 1 } },
    { type: "video_seconds", metrics: { processed_seconds: 1 } },
    { type: "requests", metrics: { count: 1, sources_used: 1 } },
    { type: "custom", metrics: { units: 1 } },
  ],
  [{ type: "audio_seconds", metrics: { total_seconds: 1 } }],
];

describe("the price components table", () => {
  it("names a real component as every fallback", () => {
    for (const info of Object.values(PRICE_COMPONENTS)) {
      if ("fallback" in info) expect(PRICE_COMPONENT_KEYS).toContain(info.fallback);
    }
  });

  it("bills every component from a custom price, at that component's own amount", () => {
    const custom = { prices: [everyPrice()], updatedAt: "2025-01-01T00:00:00.000Z" };
    const billed = new Set<PriceComponent>();
    for (const usage of USAGES) {
      const { pricing } = priceAt(tx(usage), new Date("2025-06-01T00:00:00Z"), custom);
      if (pricing.status !== "priced") throw new Error(pricing.unpriced_reason);
      for (const item of pricing.line_items) {
        const key = PRICE_COMPONENT_KEYS[Number(item.unit_price_usd) - 1];
        if (key) billed.add(key);
      }
    }
    expect([...billed].sort()).toEqual([...PRICE_COMPONENT_KEYS].sort());
  });
});
