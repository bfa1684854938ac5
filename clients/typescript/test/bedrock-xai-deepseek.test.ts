import { describe, expect, it } from "vitest";
import { fromBedrock } from "../src/adapters/bedrock.ts";
import { fromDeepSeek } from "../src/adapters/deepseek.ts";
import { fromXai, usdOfTicks } from "../src/adapters/xai.ts";
import converse from "./fixtures/bedrock/converse.json" with { type: "json" };
import streamMetadata from "./fixtures/bedrock/converse-stream-metadata.json" with { type: "json" };
import deepseekChat from "./fixtures/deepseek/chat-completion.json" with { type: "json" };
import reasonerCache from "./fixtures/deepseek/reasoner-cache-usage.json" with { type: "json" };
import deepseekChunk from "./fixtures/deepseek/stream-last-chunk.json" with { type: "json" };
import xaiCost from "./fixtures/xai/chat-completion-cost.json" with { type: "json" };
import xaiReasoning from "./fixtures/xai/chat-completion-reasoning.json" with { type: "json" };
import liveSearch from "./fixtures/xai/live-search.json" with { type: "json" };
import xaiResponses from "./fixtures/xai/responses.json" with { type: "json" };
import xaiResponsesReasoning from "./fixtures/xai/responses-reasoning.json" with { type: "json" };
import serverTools from "./fixtures/xai/responses-server-tools.json" with { type: "json" };

// Sources of every fixture: test/fixtures/SOURCES.md.
describe("fromBedrock", () => {
  const modelId = "anthropic.claude-3-5-haiku-20241022-v1:0";

  it("sends input without cache reads and writes, the model from the option, the AWS request id", () => {
    expect(fromBedrock(converse, { modelId })).toEqual({
      provider: "bedrock",
      model: modelId,
      usage: [
        {
          type: "tokens",
          metrics: {
            input_tokens: 1200,
            output_tokens: 350,
            total_tokens: 5550,
            cache_read_input_tokens: 3000,
            cache_creation_input_tokens: 1000,
          },
        },
      ],
      provider_usage_raw: converse.usage,
      transaction_id: "5f0e7b6c-3c1e-4d0a-9a53-1c2d3e4f5a6b",
    });
  });

  it("reads a ConverseStream metadata event, with or without its wrapper", () => {
    const expected = {
      provider: "bedrock",
      model: "amazon.nova-lite-v1:0",
      usage: [{ type: "tokens", metrics: { input_tokens: 25, output_tokens: 112, total_tokens: 137 } }],
      provider_usage_raw: streamMetadata.metadata.usage,
    };
    expect(fromBedrock(streamMetadata, { modelId: "amazon.nova-lite-v1:0" })).toEqual(expected);
    expect(fromBedrock(streamMetadata.metadata, { modelId: "amazon.nova-lite-v1:0" })).toEqual(expected);
  });
});

describe("fromXai", () => {
  it("sends xAI's cost_in_usd_ticks as provider_cost, exactly (1 USD = 10^10 ticks)", () => {
    const vendor = fromXai(xaiCost);
    // 37,756,000 / 10^10 = 0.0037756 USD.
    expect(vendor.provider_cost).toBe("0.0037756000");
    expect(vendor.provider_usage_raw).toMatchObject({ cost_in_usd_ticks: 37_756_000 });
    expect(fromXai(xaiReasoning)).not.toHaveProperty("provider_cost");
    expect(usdOfTicks(1_234_567)).toBe("0.0001234567");
    expect(usdOfTicks(0)).toBe("0.0000000000");
    expect(usdOfTicks(200_000_000)).toBe("0.0200000000");
    expect(usdOfTicks(90_000_000_000_000)).toBe("9000.0000000000");
    for (const bad of [-1, 1.5, "37756000", 90_000_000_000_001]) expect(usdOfTicks(bad)).toBeUndefined();
  });

  it("sends chat completion reasoning outside the completion count, as xAI reports it", () => {
    expect(fromXai(xaiReasoning)).toEqual({
      provider: "xai",
      model: "grok-4-1-fast-reasoning",
      usage: [
        {
          type: "tokens",
          // 26 + 168 + 304 = 498: the reasoning is not part of the 168.
          metrics: { input_tokens: 26, output_tokens: 168, total_tokens: 498, cached_tokens: 4, reasoning_tokens: 304 },
        },
      ],
      provider_usage_raw: xaiReasoning.usage,
      transaction_id: "3f4ddfca-b997-3bd4-80d4-8112278a1508",
    });
  });

  it("sends the documented Responses API usage as it is: there too the reasoning is outside the output", () => {
    expect(fromXai(xaiResponses)).toEqual({
      provider: "xai",
      model: "latest",
      usage: [
        {
          type: "tokens",
          // 32 + 9 + 110 = 151
          metrics: { input_tokens: 32, output_tokens: 9, total_tokens: 151, cached_tokens: 8, reasoning_tokens: 110 },
        },
      ],
      provider_usage_raw: xaiResponses.usage,
      transaction_id: "ad5663da-63e6-86c6-e0be-ff15effa8357",
    });
  });

  it("takes reasoning out of a Responses API output count that includes it, so it is billed once", () => {
    // 22006 + 1274 = 23280: here the 1080 reasoning tokens are inside the 1274.
    expect(fromXai(xaiResponsesReasoning).usage).toEqual([
      {
        type: "tokens",
        metrics: {
          input_tokens: 22006,
          output_tokens: 194,
          total_tokens: 23280,
          cached_tokens: 192,
          reasoning_tokens: 1080,
        },
      },
    ]);
  });

  it("bills server-side tool calls by kind", () => {
    expect(fromXai(serverTools).usage).toEqual([
      {
        type: "tokens",
        metrics: { input_tokens: 14750, output_tokens: 3436, total_tokens: 18186, cached_tokens: 8064 },
      },
      { type: "requests", metrics: { count: 8, request_type: "x_search" } },
    ]);
  });

  it("bills Live Search sources as a live_search request with sources_used", () => {
    expect(fromXai(liveSearch).usage[1]).toEqual({
      type: "requests",
      metrics: { count: 1, request_type: "live_search", sources_used: 9 },
    });
  });
});

describe("fromDeepSeek", () => {
  it("maps the documented chat completion", () => {
    expect(fromDeepSeek(deepseekChat)).toEqual({
      provider: "deepseek",
      model: "deepseek-flash",
      usage: [{ type: "tokens", metrics: { input_tokens: 16, output_tokens: 10, total_tokens: 26 } }],
      provider_usage_raw: deepseekChat.usage,
      transaction_id: "930c60df-bf64-41c9-a88e-3ec75f81e00e",
    });
  });

  it("sends cache hits as cached tokens inside the prompt, reasoning inside the completion", () => {
    expect(fromDeepSeek(reasonerCache).usage).toEqual([
      {
        type: "tokens",
        metrics: {
          input_tokens: 1661,
          output_tokens: 862,
          total_tokens: 2523,
          cached_tokens: 256,
          reasoning_tokens: 451,
        },
      },
    ]);
  });

  it("reads the last chunk of a stream", () => {
    expect(fromDeepSeek(deepseekChunk)).toMatchObject({
      model: "deepseek-flash",
      usage: [{ type: "tokens", metrics: { input_tokens: 17, output_tokens: 9, total_tokens: 26 } }],
      transaction_id: "1f633d8bfc032625086f14113c411638",
    });
  });
});
