import { describe, expect, it } from "vitest";
import { nanos, price, tokens, tx } from "./price-test-support.ts";

describe("what cannot be priced is said, never zero", () => {
  it.each<[string, Record<string, unknown>, RegExp, Date?]>([
    [
      "an unknown model",
      { provider: "openai", model: "gpt-nonexistent-9", usage: [tokens({ input_tokens: 1, output_tokens: 1 })] },
      /^unknown_model: /,
    ],
    [
      "an unknown tier",
      {
        provider: "openai",
        model: "gpt-4o",
        model_tier: "scale",
        usage: [tokens({ input_tokens: 1, output_tokens: 1 })],
      },
      /model_tier "scale"/,
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
      new Date("2025-08-01T12:00:00Z"),
    ],
    [
      "an image size beyond the table",
      { provider: "openai", model: "dall-e-3", usage: [{ type: "images", metrics: { generated: 1, size_px: 4096 } }] },
      /no image price/,
    ],
  ])("%s", (_name, fields, reason, at) => {
    const result = price(tx(fields), at);
    expect(result.status).toBe("unpriced");
    if (result.status === "unpriced") expect(result.unpriced_reason).toMatch(reason);
  });

  it("prices zero usage at zero without needing a rate", () => {
    expect(
      nanos(price(tx({ provider: "openai", model: "gpt-4o", usage: [{ type: "images", metrics: { generated: 0 } }] }))),
    ).toBe(0n);
  });
});
