import { describe, expect, it } from "vitest";
import { fromAnthropic, fromAnthropicStream } from "../src/adapters/anthropic.ts";
import message from "./fixtures/anthropic/message.json" with { type: "json" };
import oneHourCache from "./fixtures/anthropic/one-hour-cache-usage.json" with { type: "json" };
import streamEvents from "./fixtures/anthropic/stream-events.json" with { type: "json" };
import webSearch from "./fixtures/anthropic/web-search-usage.json" with { type: "json" };

// Sources of every fixture: test/fixtures/SOURCES.md.
describe("fromAnthropic", () => {
  it("sends input without the cache reads and writes, each as reported, and the message id", () => {
    expect(fromAnthropic(message)).toEqual({
      provider: "anthropic",
      model: "claude-opus-5",
      usage: [
        {
          type: "tokens",
          metrics: {
            input_tokens: 2095,
            output_tokens: 503,
            // 2095 + 2051 read + 2051 written + 503: never priced, only stored.
            total_tokens: 6700,
            cache_read_input_tokens: 2051,
            cache_creation_input_tokens: 2051,
          },
        },
      ],
      provider_usage_raw: message.usage,
      transaction_id: "msg_013Zva2CMHLNnXjNJJKqJ2EF",
    });
  });

  it("names the one-hour part of the cache writes", () => {
    const cached = { id: "msg_cache", type: "message", model: "claude-sonnet-4-5", ...oneHourCache };
    expect(fromAnthropic(cached).usage).toEqual([
      {
        type: "tokens",
        metrics: {
          input_tokens: 2048,
          output_tokens: 503,
          total_tokens: 4599,
          cache_read_input_tokens: 1800,
          cache_creation_input_tokens: 248,
          cache_creation_1h_input_tokens: 100,
        },
      },
    ]);
  });

  it("sends the thinking part of the output as its reasoning breakdown, never added to it", () => {
    const thought = { ...message, usage: { ...message.usage, output_tokens_details: { thinking_tokens: 300 } } };
    expect(fromAnthropic(thought).usage[0]?.metrics).toMatchObject({ output_tokens: 503, reasoning_tokens: 300 });
  });

  it("bills server-side web searches as web_search requests", () => {
    const searched = { id: "msg_search", type: "message", model: "claude-sonnet-4-5", ...webSearch };
    expect(fromAnthropic(searched).usage).toEqual([
      {
        type: "tokens",
        metrics: {
          input_tokens: 105,
          output_tokens: 6039,
          total_tokens: 20612,
          cache_read_input_tokens: 7123,
          cache_creation_input_tokens: 7345,
        },
      },
      { type: "requests", metrics: { count: 1, request_type: "web_search" } },
    ]);
  });
});

describe("fromAnthropicStream", () => {
  it("merges message_start's input with the last message_delta's output", () => {
    expect(fromAnthropicStream(streamEvents)).toEqual({
      provider: "anthropic",
      model: "claude-opus-4-6",
      usage: [{ type: "tokens", metrics: { input_tokens: 25, output_tokens: 15, total_tokens: 40 } }],
      provider_usage_raw: { input_tokens: 25, output_tokens: 15 },
      transaction_id: "msg_1nZdL29xx5MUA1yADyHTEsnR8uuvGzszyY",
    });
  });

  it("takes the cumulative counts of a delta that repeats the input side", () => {
    const [start] = streamEvents;
    const delta = {
      type: "message_delta",
      delta: { stop_reason: "end_turn", stop_sequence: null },
      usage: { input_tokens: 25, cache_read_input_tokens: 1000, output_tokens: 40, server_tool_use: null },
    };
    expect(fromAnthropicStream([start, delta]).usage[0]?.metrics).toEqual({
      input_tokens: 25,
      output_tokens: 40,
      total_tokens: 1065,
      cache_read_input_tokens: 1000,
    });
  });

  it("says what is missing when the stream had no message_start", () => {
    expect(() => fromAnthropicStream(streamEvents.slice(1))).toThrow(/message_start/);
  });
});
