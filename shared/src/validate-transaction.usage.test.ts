import { describe, expect, it } from "vitest";
import { validateTransaction } from "./validate-transaction.ts";
import { type Errors, errorsOf, tokens, withUsage } from "./validation-test-helpers.ts";

describe("usage entries", () => {
  it.each<[string, unknown]>([
    [
      "tokens with every optional count",
      tokens({
        cached_tokens: 0,
        cache_read_input_tokens: 1,
        cache_creation_input_tokens: 2,
        reasoning_tokens: 3,
        thinking_tokens: 4,
        prompt_tokens: 10,
        completion_tokens: 5,
        prompt_text_tokens: 6,
        text_tokens: 7,
        audio_tokens: 8,
        image_tokens: 9,
      }),
    ],
    ["images", { type: "images", metrics: { generated: 0, size_px: 1024, quality: "hd", width_px: 1, height_px: 1 } }],
    ["audio with input only", { type: "audio_seconds", metrics: { input_seconds: 1.5 } }],
    ["audio with output only", { type: "audio_seconds", metrics: { output_seconds: 0 } }],
    ["audio with total only", { type: "audio_seconds", metrics: { total_seconds: 3 } }],
    ["video", { type: "video_seconds", metrics: { processed_seconds: 12.25 } }],
    ["requests", { type: "requests", metrics: { count: 0, request_type: "live_search", sources_used: 4 } }],
    ["custom", { type: "custom", metrics: { units: 0.5 } }],
  ])("accepts %s", (_name, entry) => {
    expect(errorsOf(withUsage(entry))).toEqual([]);
  });

  it("accepts one entry of every type together", () => {
    expect(
      errorsOf(
        withUsage(
          tokens({}),
          { type: "images", metrics: { generated: 1 } },
          { type: "audio_seconds", metrics: { input_seconds: 1 } },
          { type: "video_seconds", metrics: { processed_seconds: 1 } },
          { type: "requests", metrics: { count: 1 } },
          { type: "custom", metrics: { units: 1 } },
        ),
      ),
    ).toEqual([]);
  });

  it.each<[string, unknown, Errors]>([
    ["an unknown type", { type: "words", metrics: {} }, [["usage.0.type", "invalid_value"]]],
    ["a missing type", { metrics: {} }, [["usage.0.type", "required"]]],
    ["a missing metrics", { type: "tokens" }, [["usage.0.metrics", "required"]]],
    ["metrics as an array", { type: "custom", metrics: [] }, [["usage.0.metrics", "invalid_type"]]],
    ["an entry that is a string", "tokens", [["usage.0", "invalid_type"]]],
    ["input_tokens 0", tokens({ input_tokens: 0 }), [["usage.0.metrics.input_tokens", "too_small"]]],
    ["output_tokens 0", tokens({ output_tokens: 0 }), [["usage.0.metrics.output_tokens", "too_small"]]],
    [
      "total_tokens missing",
      { type: "tokens", metrics: { input_tokens: 1, output_tokens: 1 } },
      [["usage.0.metrics.total_tokens", "required"]],
    ],
    ["a fractional token count", tokens({ input_tokens: 1.5 }), [["usage.0.metrics.input_tokens", "invalid_type"]]],
    ["a token count as a string", tokens({ input_tokens: "10" }), [["usage.0.metrics.input_tokens", "invalid_type"]]],
    ["a negative cached count", tokens({ cached_tokens: -1 }), [["usage.0.metrics.cached_tokens", "too_small"]]],
    ["an unsafe integer", tokens({ reasoning_tokens: 2 ** 53 }), [["usage.0.metrics.reasoning_tokens", "too_large"]]],
    [
      "an infinite count",
      tokens({ total_tokens: Number.POSITIVE_INFINITY }),
      [["usage.0.metrics.total_tokens", "too_large"]],
    ],
    [
      "a negative image count",
      { type: "images", metrics: { generated: -1 } },
      [["usage.0.metrics.generated", "too_small"]],
    ],
    [
      "an unknown image quality",
      { type: "images", metrics: { generated: 1, quality: "ultra" } },
      [["usage.0.metrics.quality", "invalid_value"]],
    ],
    [
      "a zero width",
      { type: "images", metrics: { generated: 1, width_px: 0 } },
      [["usage.0.metrics.width_px", "too_small"]],
    ],
    [
      "a zero height",
      { type: "images", metrics: { generated: 1, height_px: 0 } },
      [["usage.0.metrics.height_px", "too_small"]],
    ],
    [
      "a negative size",
      { type: "images", metrics: { generated: 1, size_px: -1 } },
      [["usage.0.metrics.size_px", "too_small"]],
    ],
    [
      "audio with no seconds",
      { type: "audio_seconds", metrics: { language: "en" } },
      [["usage.0.metrics", "required"]],
    ],
    [
      "negative audio seconds",
      { type: "audio_seconds", metrics: { input_seconds: -0.1 } },
      [["usage.0.metrics.input_seconds", "too_small"]],
    ],
    [
      "video without seconds",
      { type: "video_seconds", metrics: {} },
      [["usage.0.metrics.processed_seconds", "required"]],
    ],
    [
      "negative video seconds",
      { type: "video_seconds", metrics: { processed_seconds: -1 } },
      [["usage.0.metrics.processed_seconds", "too_small"]],
    ],
    ["requests without count", { type: "requests", metrics: {} }, [["usage.0.metrics.count", "required"]]],
    [
      "an unknown request type",
      { type: "requests", metrics: { count: 1, request_type: "browse" } },
      [["usage.0.metrics.request_type", "invalid_value"]],
    ],
    [
      "negative sources",
      { type: "requests", metrics: { count: 1, sources_used: -1 } },
      [["usage.0.metrics.sources_used", "too_small"]],
    ],
    ["fractional requests", { type: "requests", metrics: { count: 1.5 } }, [["usage.0.metrics.count", "invalid_type"]]],
    ["custom without units", { type: "custom", metrics: {} }, [["usage.0.metrics.units", "required"]]],
    ["negative custom units", { type: "custom", metrics: { units: -2 } }, [["usage.0.metrics.units", "too_small"]]],
  ])("rejects %s", (_name, entry, expected) => {
    expect(errorsOf(withUsage(entry))).toEqual(expected);
  });

  it("rejects a repeated usage type at the repeat", () => {
    expect(errorsOf(withUsage(tokens({}), { type: "custom", metrics: { units: 1 } }, tokens({})))).toEqual([
      ["usage.2.type", "invalid_value"],
    ]);
  });

  it("reports every error, not only the first", () => {
    expect(
      errorsOf({
        provider: "x",
        model: "",
        usage: [tokens({ input_tokens: 0, cached_tokens: -1 })],
        context: {},
      }),
    ).toEqual([
      ["provider", "invalid_value"],
      ["model", "too_small"],
      ["usage.0.metrics.input_tokens", "too_small"],
      ["usage.0.metrics.cached_tokens", "too_small"],
      ["context.billable_customer_id", "required"],
    ]);
  });

  it("writes messages a developer can act on, naming the field", () => {
    const result = validateTransaction(withUsage(tokens({ input_tokens: 0 })));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors[0]?.message).toBe("usage.0.metrics.input_tokens must be at least 1");
  });
});
