import type { CustomPrice, Transaction } from "@usage-ingestion/shared";
import { validateTransaction } from "@usage-ingestion/shared";
import { describe, expect, it } from "vitest";
import { priceAt } from "./price.ts";
import type { PricingResult } from "./price-transaction.ts";
import type { CustomPricing } from "./rate-card.ts";

/**
 * Expected costs are worked out by hand from each vendor's published prices (USD per million tokens
 * unless stated), in nano-USD (1 USD = 1e9). Sources:
 * - OpenAI https://openai.com/api/pricing/ : gpt-4o 2.50 in / 1.25 cached / 10 out; o3 2 / 0.50 / 8;
 *   DALL-E 3 $0.040 standard, $0.080 hd (1024x1024); gpt-image-1 high 1536x1024 $0.25; whisper-1 $0.006/min;
 *   web search $10 per 1,000 calls; Batch and Flex -50%.
 * - Anthropic https://www.anthropic.com/pricing#api : Claude Sonnet 4.5 3 in / 3.75 cache write /
 *   0.30 cache read / 15 out; above 200K prompt tokens 6 / 7.50 / 0.60 / 22.50.
 * - Google https://ai.google.dev/gemini-api/docs/pricing : Gemini 2.5 Flash 0.30 in / 0.03 cached /
 *   2.50 out (thinking included); Veo 3 $0.75/s until 2025-09-09, $0.40/s after; grounding $35 / 1,000.
 * - xAI https://docs.x.ai/docs/models : grok-4 3 in / 0.75 cached / 15 out; Live Search $25 / 1,000 sources.
 * - DeepSeek https://api-docs.deepseek.com/quick_start/pricing : deepseek-chat 0.27 in / 0.07 cache hit / 1.10 out.
 * - AWS https://aws.amazon.com/bedrock/pricing/ : Claude Sonnet 4 on Bedrock 3 in / 15 out.
 */
const RECEIVED = new Date("2025-11-01T12:00:00Z");

function tx(fields: Record<string, unknown>): Transaction {
  const result = validateTransaction({ context: { billable_customer_id: "c" }, ...fields });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.transaction;
}

const price = (transaction: Transaction, at = RECEIVED, custom: CustomPricing | null = null): PricingResult =>
  priceAt(transaction, at, custom).pricing;

const tokens = (metrics: Record<string, number>) => ({ type: "tokens", metrics: { total_tokens: 1, ...metrics } });

function nanos(result: PricingResult): bigint {
  if (result.status !== "priced") throw new Error(`unpriced: ${result.unpriced_reason}`);
  return result.cost_nanos;
}

describe("tokens, each vendor's convention", () => {
  it.each<[string, Record<string, unknown>, bigint]>([
    // 1000 uncached x 2.50 + 200 cached x 1.25 + 300 out x 10 = 2500000 + 250000 + 3000000 nanos.
    [
      "openai: input includes cached",
      {
        provider: "openai",
        model: "gpt-4o",
        usage: [tokens({ input_tokens: 1200, cached_tokens: 200, output_tokens: 300 })],
      },
      5_750_000n,
    ],
    // Reasoning sits inside output for OpenAI: 1000 x 2 + 500 x 8 (100 output + 400 reasoning) = 2000000 + 4000000.
    [
      "openai: reasoning inside output",
      {
        provider: "openai",
        model: "o3",
        usage: [tokens({ input_tokens: 1000, output_tokens: 500, reasoning_tokens: 400 })],
      },
      6_000_000n,
    ],
    // A dated id resolves to its model.
    [
      "openai: dated model id",
      { provider: "openai", model: "gpt-4o-2024-08-06", usage: [tokens({ input_tokens: 1000, output_tokens: 1000 })] },
      12_500_000n,
    ],
    // 1000 x 3 + 2000 x 0.30 + 500 x 3.75 + 400 x 15 = 3000000 + 600000 + 1875000 + 6000000.
    [
      "anthropic: cache read and write outside input",
      {
        provider: "anthropic",
        model: "claude-sonnet-4-5-20250929",
        usage: [
          tokens({
            input_tokens: 1000,
            cache_read_input_tokens: 2000,
            cache_creation_input_tokens: 500,
            output_tokens: 400,
          }),
        ],
      },
      11_475_000n,
    ],
    // Prompt 150000 + 60000 cached = 210000 > 200000: 150000 x 6 + 60000 x 0.60 + 1000 x 22.50 = 900000000 + 36000000 + 22500000.
    [
      "anthropic: long-context tier",
      {
        provider: "anthropic",
        model: "claude-sonnet-4-5",
        usage: [tokens({ input_tokens: 150000, cache_read_input_tokens: 60000, output_tokens: 1000 })],
      },
      958_500_000n,
    ],
    // 900 x 0.30 + 100 x 0.03 + (200 output + 300 thinking) x 2.50 = 270000 + 3000 + 1250000.
    [
      "gemini: thinking outside output",
      {
        provider: "gemini",
        model: "gemini-2.5-flash",
        usage: [tokens({ input_tokens: 1000, cached_tokens: 100, output_tokens: 200, thinking_tokens: 300 })],
      },
      1_523_000n,
    ],
    [
      "gemini: models/ prefix",
      {
        provider: "gemini",
        model: "models/gemini-2.5-flash",
        usage: [tokens({ input_tokens: 1000, output_tokens: 200 })],
      },
      800_000n,
    ],
    // 1000 x 3 + (100 + 200 reasoning) x 15 = 3000000 + 4500000.
    [
      "xai: reasoning outside completion",
      {
        provider: "xai",
        model: "grok-4",
        usage: [tokens({ input_tokens: 1000, output_tokens: 100, reasoning_tokens: 200 })],
      },
      7_500_000n,
    ],
    // 1500 uncached x 0.27 + 500 cached x 0.07 + 1000 x 1.10 = 405000 + 35000 + 1100000.
    [
      "deepseek: input includes cache hits",
      {
        provider: "deepseek",
        model: "deepseek-chat",
        usage: [tokens({ input_tokens: 2000, cached_tokens: 500, output_tokens: 1000 })],
      },
      1_540_000n,
    ],
    // 1000 x 3 + 100 x 15 = 3000000 + 1500000, through a cross-region inference profile id.
    [
      "bedrock: regional profile id",
      {
        provider: "bedrock",
        model: "us.anthropic.claude-sonnet-4-20250514-v1:0",
        usage: [tokens({ input_tokens: 1000, output_tokens: 100 })],
      },
      4_500_000n,
    ],
    // Batch: (1000 x 2.50 + 1000 x 10) / 2.
    [
      "openai: batch tier halves token prices",
      {
        provider: "openai",
        model: "gpt-4o",
        model_tier: "batch",
        usage: [tokens({ input_tokens: 1000, output_tokens: 1000 })],
      },
      6_250_000n,
    ],
    [
      "openai: standard tier is the list price",
      {
        provider: "openai",
        model: "gpt-4o",
        model_tier: "standard",
        usage: [tokens({ input_tokens: 1000, output_tokens: 1000 })],
      },
      12_500_000n,
    ],
  ])("%s", (_name, fields, expected) => {
    expect(nanos(price(tx(fields)))).toBe(expected);
  });

  it("shows its line items with rates and sources", () => {
    const result = price(
      tx({
        provider: "openai",
        model: "gpt-4o",
        usage: [tokens({ input_tokens: 1200, cached_tokens: 200, output_tokens: 300 })],
      }),
    );
    if (result.status !== "priced") throw new Error("expected priced");
    expect(
      result.line_items.map((item) => [item.component, item.quantity, item.unit_price_usd, item.cost_usd]),
    ).toEqual([
      ["input", 1000, "2.5", "0.002500000"],
      ["cache_read", 200, "1.25", "0.000250000"],
      ["output", 300, "10", "0.003000000"],
    ]);
    expect(result.line_items[0]?.price_source).toContain("@pydantic/genai-prices@");
  });
});

describe("other usage types", () => {
  it.each<[string, Record<string, unknown>, bigint, Date?]>([
    [
      "images: dall-e-3 hd, two",
      {
        provider: "openai",
        model: "dall-e-3",
        usage: [{ type: "images", metrics: { generated: 2, quality: "hd", size_px: 1024 } }],
      },
      160_000_000n,
    ],
    [
      "images: dall-e-3 default quality and size",
      { provider: "openai", model: "dall-e-3", usage: [{ type: "images", metrics: { generated: 1 } }] },
      40_000_000n,
    ],
    [
      "images: gpt-image-1 high 1536x1024",
      {
        provider: "openai",
        model: "gpt-image-1",
        usage: [{ type: "images", metrics: { generated: 1, quality: "high", width_px: 1536, height_px: 1024 } }],
      },
      250_000_000n,
    ],
    // 90.5 s at $0.006/min = $0.0001/s.
    [
      "audio: whisper-1 seconds",
      { provider: "openai", model: "whisper-1", usage: [{ type: "audio_seconds", metrics: { input_seconds: 90.5 } }] },
      9_050_000n,
    ],
    [
      "video: veo-3 before the 2025-09-09 cut",
      {
        provider: "gemini",
        model: "veo-3.0-generate-001",
        usage: [{ type: "video_seconds", metrics: { processed_seconds: 8 } }],
      },
      6_000_000_000n,
      new Date("2025-08-01T00:00:00Z"),
    ],
    [
      "video: veo-3 after the cut",
      {
        provider: "gemini",
        model: "veo-3.0-generate-001",
        usage: [{ type: "video_seconds", metrics: { processed_seconds: 8 } }],
      },
      3_200_000_000n,
    ],
    // 3 web searches at $10/1000 plus the tokens: 1000 x 2.5 + 100 x 10.
    [
      "requests: openai web search with tokens",
      {
        provider: "openai",
        model: "gpt-4o",
        usage: [
          tokens({ input_tokens: 1000, output_tokens: 100 }),
          { type: "requests", metrics: { count: 3, request_type: "web_search" } },
        ],
      },
      30_000_000n + 3_500_000n,
    ],
    // 7 sources at $25/1000; the search call itself is free.
    [
      "requests: xai live search sources",
      {
        provider: "xai",
        model: "grok-4",
        usage: [{ type: "requests", metrics: { count: 1, request_type: "live_search", sources_used: 7 } }],
      },
      175_000_000n,
    ],
    [
      "requests: gemini grounding",
      {
        provider: "gemini",
        model: "gemini-2.5-flash",
        usage: [{ type: "requests", metrics: { count: 2, request_type: "google_grounding" } }],
      },
      70_000_000n,
    ],
  ])("%s", (_name, fields, expected, at) => {
    expect(nanos(price(tx(fields), at))).toBe(expected);
  });
});

describe("what cannot be priced is said, never zero", () => {
  it.each<[string, Record<string, unknown>, RegExp]>([
    [
      "an unknown model",
      { provider: "openai", model: "gpt-nonexistent-9", usage: [tokens({ input_tokens: 1, output_tokens: 1 })] },
      /unknown model/,
    ],
    [
      "an unknown tier",
      {
        provider: "openai",
        model: "gpt-4o",
        model_tier: "priority",
        usage: [tokens({ input_tokens: 1, output_tokens: 1 })],
      },
      /model_tier "priority"/,
    ],
    [
      "cached above input",
      {
        provider: "openai",
        model: "gpt-4o",
        usage: [tokens({ input_tokens: 10, cached_tokens: 20, output_tokens: 1 })],
      },
      /inconsistent token counts/,
    ],
    [
      "reasoning above output",
      {
        provider: "anthropic",
        model: "claude-sonnet-4-5",
        usage: [tokens({ input_tokens: 10, output_tokens: 5, thinking_tokens: 9 })],
      },
      /inconsistent token counts/,
    ],
    [
      "a custom provider without custom prices",
      { provider: "custom", model: "in-house", usage: [{ type: "custom", metrics: { units: 3 } }] },
      /no custom price/,
    ],
    [
      "custom units on a catalog model",
      { provider: "openai", model: "gpt-4o", usage: [{ type: "custom", metrics: { units: 3 } }] },
      /no custom unit price/,
    ],
    [
      "a tool with no per-request price",
      {
        provider: "deepseek",
        model: "deepseek-chat",
        usage: [{ type: "requests", metrics: { count: 1, request_type: "web_search" } }],
      },
      /no price for web_search requests/,
    ],
    [
      "an image size beyond the table",
      { provider: "openai", model: "dall-e-3", usage: [{ type: "images", metrics: { generated: 1, size_px: 4096 } }] },
      /no image price/,
    ],
  ])("%s", (_name, fields, reason) => {
    const result = price(tx(fields));
    expect(result.status).toBe("unpriced");
    if (result.status === "unpriced") expect(result.unpriced_reason).toMatch(reason);
  });

  it("prices zero usage at zero without needing a rate", () => {
    expect(
      nanos(price(tx({ provider: "openai", model: "gpt-4o", usage: [{ type: "images", metrics: { generated: 0 } }] }))),
    ).toBe(0n);
  });
});

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
