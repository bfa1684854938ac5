import { describe, expect, it } from "vitest";
import { nanos, price, tokens, tx } from "./price-test-support.ts";

describe("tokens, each vendor's convention", () => {
  it.each<[string, Record<string, unknown>, bigint, Date?]>([
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
      // DeepSeek's standard window (UTC 00:30-16:30) in August 2025; these prices ended on 2025-09-05.
      new Date("2025-08-01T12:00:00Z"),
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
  ])("%s", (_name, fields, expected, at) => {
    expect(nanos(price(tx(fields), at))).toBe(expected);
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
