import { describe, expect, it } from "vitest";
import type { CustomPricing } from "./choose-rate-card.ts";
import type { CustomPrice } from "./custom-pricing.ts";
import { nanos, price, RECEIVED, tokens, tx } from "./price-test-support.ts";

describe("custom prices", () => {
  const custom = (prices: Partial<CustomPrice>[]): CustomPricing => ({
    prices: prices.map((p) => ({ provider: "custom", model: "in-house", ...p }) as CustomPrice),
    updatedAt: "2025-10-01T00:00:00.000Z",
  });

  it("prices a custom provider from its own table, every usage type", () => {
    const pricing = custom([
      {
        input_mtok: "1.5",
        output_mtok: "6",
        image: "0.02",
        audio_second: "0.001",
        video_second: "0.05",
        per_request: { default: "0.004" },
        unit: "0.25",
      },
    ]);
    const transaction = tx({
      provider: "custom",
      model: "in-house",
      usage: [
        tokens({ input_tokens: 2000, output_tokens: 500 }),
        { type: "images", metrics: { generated: 3 } },
        { type: "audio_seconds", metrics: { total_seconds: 12 } },
        { type: "video_seconds", metrics: { processed_seconds: 2.5 } },
        { type: "requests", metrics: { count: 5 } },
        { type: "custom", metrics: { units: 4 } },
      ],
    });
    // 2000 x 1.5/1e6 = 0.003; 500 x 6/1e6 = 0.003; 3 x 0.02; 12 x 0.001; 2.5 x 0.05; 5 x 0.004; 4 x 0.25.
    expect(nanos(price(transaction, RECEIVED, pricing))).toBe(
      3_000_000n + 3_000_000n + 60_000_000n + 12_000_000n + 125_000_000n + 20_000_000n + 1_000_000_000n,
    );
  });

  it("overrides the catalog for the matching provider, model and tier only", () => {
    const pricing = custom([{ provider: "openai", model: "gpt-4o", input_mtok: "1", output_mtok: "1" }]);
    const usage = [tokens({ input_tokens: 1000, output_tokens: 1000 })];
    expect(nanos(price(tx({ provider: "openai", model: "gpt-4o", usage }), RECEIVED, pricing))).toBe(2_000_000n);
    // Another tier is not matched: the catalog's batch price applies.
    expect(
      nanos(price(tx({ provider: "openai", model: "gpt-4o", model_tier: "batch", usage }), RECEIVED, pricing)),
    ).toBe(6_250_000n);
  });

  it("uses the custom price in effect at the receive time", () => {
    const pricing = custom([
      { unit: "1", effective_from: "2025-01-01T00:00:00Z" },
      { unit: "2", effective_from: "2025-06-01T00:00:00Z" },
    ]);
    const transaction = tx({
      provider: "custom",
      model: "in-house",
      usage: [{ type: "custom", metrics: { units: 1 } }],
    });
    expect(nanos(price(transaction, new Date("2025-03-01T00:00:00Z"), pricing))).toBe(1_000_000_000n);
    expect(nanos(price(transaction, new Date("2025-07-01T00:00:00Z"), pricing))).toBe(2_000_000_000n);
    expect(price(transaction, new Date("2024-12-01T00:00:00Z"), pricing).status).toBe("unpriced");
  });

  it("leaves a usage type the custom price does not cover unpriced", () => {
    const pricing = custom([{ input_mtok: "1", output_mtok: "1" }]);
    const transaction = tx({
      provider: "custom",
      model: "in-house",
      usage: [{ type: "video_seconds", metrics: { processed_seconds: 1 } }],
    });
    const result = price(transaction, RECEIVED, pricing);
    expect(result).toEqual({ status: "unpriced", unpriced_reason: expect.stringContaining("no video price") });
  });
});
