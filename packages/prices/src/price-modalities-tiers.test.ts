import { describe, expect, it } from "vitest";
import { nanos, price, tokens, tx } from "./price-test-support.ts";

/**
 * Expected costs worked out by hand (nano-USD; $X per million tokens = X x 1000 nano per token):
 * - gpt-4o-audio-preview: text 2.50 in / 10 out, audio 40 in / 80 out
 *   (https://developers.openai.com/api/docs/models/gpt-4o-audio-preview.md, read 2026-11-22).
 * - gemini-2.5-flash Batch: 0.15 in, cache 0.03 ("Same as Standard"), 1.25 out
 *   (https://ai.google.dev/gemini-api/docs/pricing, copy last updated 2026-06-02).
 * - deepseek-chat, August 2025: standard (UTC 00:30-16:30) 0.27 in / 1.10 out, discount (UTC 16:30-00:30)
 *   0.135 / 0.55 (https://api-docs.deepseek.com/quick_start/pricing, copy of August 2025).
 */
const AUDIO_AT = new Date("2026-03-10T14:00:00Z");
const audioPreview = (metrics: Record<string, number>) =>
  tx({ provider: "openai", model: "gpt-4o-audio-preview", usage: [tokens(metrics)] });

describe("audio and image tokens: the side rule", () => {
  it.each<[string, Record<string, number>, bigint]>([
    // Fits only output: 1500 x 80 + 500 text out x 10 + 1000 text in x 2.50.
    [
      "a count that fits only output is output",
      { input_tokens: 1000, output_tokens: 2000, audio_tokens: 1500 },
      127_500_000n,
    ],
    // Fits both: input. 800 x 40 + 200 x 2.50 + 2000 x 10.
    [
      "a count that fits both sides is input",
      { input_tokens: 1000, output_tokens: 2000, audio_tokens: 800 },
      52_500_000n,
    ],
    // The side-specific count wins: 100 x 40 + 900 x 2.50 + 2000 x 10.
    [
      "side-specific metrics win",
      { input_tokens: 1000, output_tokens: 2000, input_audio_tokens: 100, audio_tokens: 900 },
      26_250_000n,
    ],
  ])("%s", (_name, metrics, expected) => {
    expect(nanos(price(audioPreview(metrics), AUDIO_AT))).toBe(expected);
  });

  it("leaves a count that fits neither side unpriced, naming the metrics to send", () => {
    const result = price(audioPreview({ input_tokens: 1000, output_tokens: 2000, audio_tokens: 5000 }), AUDIO_AT);
    expect(result).toMatchObject({
      status: "unpriced",
      unpriced_reason: expect.stringMatching(/fit neither.*input_audio_tokens/),
    });
  });
});

describe("tiers, windows and what stays unpriced", () => {
  it("bills Gemini batch at half the input and output price and the standard cache price", () => {
    const transaction = tx({
      provider: "gemini",
      model: "gemini-2.5-flash",
      model_tier: "batch",
      usage: [tokens({ input_tokens: 10000, cached_tokens: 4000, output_tokens: 1000 })],
    });
    // 6000 x 0.15 + 4000 x 0.03 + 1000 x 1.25.
    expect(nanos(price(transaction, new Date("2026-07-01T12:00:00Z")))).toBe(2_270_000n);
  });

  it.each<[string, bigint]>([
    // 1000 x 0.27 + 1000 x 1.10: the standard window ends at 16:30.
    ["2025-08-01T16:29:59Z", 1_370_000n],
    // 1000 x 0.135 + 1000 x 0.55: the discount window starts at 16:30 and ends before 00:30.
    ["2025-08-01T16:30:00Z", 685_000n],
    ["2025-08-02T00:29:59Z", 685_000n],
    ["2025-08-02T00:30:00Z", 1_370_000n],
  ])("prices deepseek-chat received at %s in its window", (at, expected) => {
    const transaction = tx({
      provider: "deepseek",
      model: "deepseek-chat",
      usage: [tokens({ input_tokens: 1000, output_tokens: 1000 })],
    });
    expect(nanos(price(transaction, new Date(at)))).toBe(expected);
  });

  it.each<[string, Record<string, unknown>, RegExp, string]>([
    [
      "one-hour writes above all writes",
      {
        provider: "anthropic",
        model: "claude-sonnet-4-5",
        usage: [
          tokens({
            input_tokens: 1,
            output_tokens: 1,
            cache_creation_input_tokens: 1,
            cache_creation_1h_input_tokens: 2,
          }),
        ],
      },
      /cache_creation_1h_input_tokens \(2\) exceed/,
      "2025-11-01T00:00:00Z",
    ],
    [
      "one-hour writes on Bedrock Claude",
      {
        provider: "bedrock",
        model: "us.anthropic.claude-sonnet-4-20250514-v1:0",
        usage: [
          tokens({
            input_tokens: 1,
            output_tokens: 1,
            cache_creation_input_tokens: 5,
            cache_creation_1h_input_tokens: 5,
          }),
        ],
      },
      /no one-hour cache write price/,
      "2025-11-01T00:00:00Z",
    ],
    [
      "grok-4 above 128K prompt tokens",
      { provider: "xai", model: "grok-4", usage: [tokens({ input_tokens: 130000, output_tokens: 1 })] },
      /no long-context price .* above 128000 prompt tokens/,
      "2025-11-01T00:00:00Z",
    ],
    [
      "Anthropic priority tier",
      {
        provider: "anthropic",
        model: "claude-opus-4-1",
        model_tier: "priority",
        usage: [tokens({ input_tokens: 1, output_tokens: 1 })],
      },
      /no price for model_tier "priority" of anthropic/,
      "2025-11-01T00:00:00Z",
    ],
    [
      "Bedrock batch without a listed batch price",
      {
        provider: "bedrock",
        model: "us.anthropic.claude-sonnet-4-20250514-v1:0",
        model_tier: "batch",
        usage: [tokens({ input_tokens: 1, output_tokens: 1 })],
      },
      /no price for model_tier "batch" of bedrock/,
      "2025-09-10T00:00:00Z",
    ],
    [
      "DeepSeek after its unread 2025-09-29 change",
      { provider: "deepseek", model: "deepseek-chat", usage: [tokens({ input_tokens: 1, output_tokens: 1 })] },
      /2025-09-29/,
      "2025-11-01T00:00:00Z",
    ],
  ])("leaves %s unpriced, saying what is missing", (_name, fields, reason, at) => {
    const result = price(tx(fields), new Date(at));
    expect(result).toMatchObject({ status: "unpriced", unpriced_reason: expect.stringMatching(reason) });
  });
});
