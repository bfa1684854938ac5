import { describe, expect, it } from "vitest";
import { fromGemini } from "../src/adapters/gemini.ts";
import audio from "./fixtures/gemini/audio-modalities.json" with { type: "json" };
import caching from "./fixtures/gemini/context-caching-usage.json" with { type: "json" };
import thinking from "./fixtures/gemini/generate-content-thinking.json" with { type: "json" };
import grounding from "./fixtures/gemini/grounding.json" with { type: "json" };

// Sources of every fixture: test/fixtures/SOURCES.md.
describe("fromGemini", () => {
  it("sends thoughts apart from the candidates, as Google counts them, and the response id", () => {
    expect(fromGemini(thinking)).toEqual({
      provider: "gemini",
      model: "gemini-3-flash-preview",
      usage: [
        {
          type: "tokens",
          metrics: { input_tokens: 34, output_tokens: 418, total_tokens: 890, reasoning_tokens: 438 },
        },
      ],
      provider_usage_raw: thinking.usageMetadata,
      transaction_id: "3w4Vad6yF-y1vdIP_q_zgAw",
    });
  });

  it("keeps cached content inside the prompt count", () => {
    expect(fromGemini(caching).usage).toEqual([
      {
        type: "tokens",
        metrics: { input_tokens: 696219, output_tokens: 214, total_tokens: 696433, cached_tokens: 696190 },
      },
    ]);
  });

  it("adds tool-use prompt tokens to the input and bills one grounded prompt", () => {
    expect(fromGemini(grounding).usage).toEqual([
      { type: "tokens", metrics: { input_tokens: 222, output_tokens: 16, total_tokens: 238 } },
      { type: "requests", metrics: { count: 1, request_type: "google_grounding" } },
    ]);
  });

  it("bills Google Maps grounding as maps_grounding", () => {
    const [candidate] = grounding.candidates;
    const maps = {
      ...grounding,
      candidates: [{ ...candidate, groundingMetadata: { groundingChunks: [{ maps: { title: "Cafe" } }] } }],
    };
    expect(fromGemini(maps).usage[1]).toEqual({
      type: "requests",
      metrics: { count: 1, request_type: "maps_grounding" },
    });
  });

  it("sends the audio part of the prompt as input audio tokens", () => {
    expect(fromGemini(audio).usage[0]?.metrics).toEqual({
      input_tokens: 1420,
      output_tokens: 56,
      total_tokens: 1476,
      input_audio_tokens: 1408,
    });
  });

  it("reads a stream's usage from its last chunk that has one", () => {
    const first = { candidates: thinking.candidates, modelVersion: "gemini-3-flash-preview" };
    expect(fromGemini([first, thinking])).toEqual(fromGemini(thinking));
  });

  it("takes the model from the option when the response has no modelVersion", () => {
    const { modelVersion: _, ...bare } = caching;
    expect(fromGemini(bare, { model: "gemini-2.0-flash" }).model).toBe("gemini-2.0-flash");
  });
});
