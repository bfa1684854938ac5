import { describe, expect, it } from "vitest";
import { nanos, price, tokens, tx } from "./price-test-support.ts";

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
