import { describe, expect, it } from "vitest";
import { UsageNotFoundError } from "../src/adapters/common.ts";
import { fromOpenAI } from "../src/adapters/openai.ts";
import chat from "./fixtures/openai/chat-completion.json" with { type: "json" };
import streamChunk from "./fixtures/openai/chat-stream-usage-chunk.json" with { type: "json" };
import imageGeneration from "./fixtures/openai/image-generation.json" with { type: "json" };
import promptCaching from "./fixtures/openai/prompt-caching-usage.json" with { type: "json" };
import realtime from "./fixtures/openai/realtime-response-done.json" with { type: "json" };
import reasoning from "./fixtures/openai/reasoning-usage.json" with { type: "json" };
import responses from "./fixtures/openai/responses.json" with { type: "json" };
import speech from "./fixtures/openai/speech-audio-done.json" with { type: "json" };
import transcriptionDuration from "./fixtures/openai/transcription-duration.json" with { type: "json" };
import transcriptionTokens from "./fixtures/openai/transcription-tokens.json" with { type: "json" };

// Sources of every fixture: test/fixtures/SOURCES.md.
describe("fromOpenAI", () => {
  it("maps a Chat Completions response, its id becoming the transaction id", () => {
    expect(fromOpenAI(chat)).toEqual({
      provider: "openai",
      model: "gpt-4o-2024-08-06",
      usage: [{ type: "tokens", metrics: { input_tokens: 1117, output_tokens: 46, total_tokens: 1163 } }],
      provider_usage_raw: chat.usage,
      transaction_id: "chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG",
    });
  });

  it("keeps cached tokens as the breakdown of the prompt they are (never added to it)", () => {
    const response = { id: "chatcmpl-cache", object: "chat.completion", model: "gpt-4o-mini", ...promptCaching };
    expect(fromOpenAI(response).usage).toEqual([
      { type: "tokens", metrics: { input_tokens: 2006, output_tokens: 300, total_tokens: 2306, cached_tokens: 1920 } },
    ]);
  });

  it("sends OpenAI's cache writes as cache_creation_input_tokens, a part of the prompt as cached tokens are", () => {
    const usage = {
      prompt_tokens: 5000,
      completion_tokens: 100,
      total_tokens: 5100,
      prompt_tokens_details: { cached_tokens: 1000, cache_write_tokens: 3000 },
    };
    expect(fromOpenAI({ id: "chatcmpl-w", object: "chat.completion", model: "gpt-5.5", usage }).usage).toEqual([
      {
        type: "tokens",
        metrics: {
          input_tokens: 5000,
          output_tokens: 100,
          total_tokens: 5100,
          cached_tokens: 1000,
          cache_creation_input_tokens: 3000,
        },
      },
    ]);
    const responses = {
      id: "resp_w",
      object: "response",
      model: "gpt-5.5",
      output: [],
      usage: {
        input_tokens: 5000,
        output_tokens: 100,
        total_tokens: 5100,
        input_tokens_details: { cached_tokens: 1000, cache_write_tokens: 3000 },
        output_tokens_details: { reasoning_tokens: 40 },
      },
    };
    expect(fromOpenAI(responses).usage).toEqual([
      {
        type: "tokens",
        metrics: {
          input_tokens: 5000,
          output_tokens: 100,
          total_tokens: 5100,
          cached_tokens: 1000,
          cache_creation_input_tokens: 3000,
          reasoning_tokens: 40,
        },
      },
    ]);
  });

  it("reads the usage chunk that ends a stream (empty choices)", () => {
    expect(fromOpenAI(streamChunk)).toEqual({
      provider: "openai",
      model: "gpt-4o-mini",
      usage: [
        {
          type: "tokens",
          metrics: { input_tokens: 2006, output_tokens: 300, total_tokens: 2306, cached_tokens: 1920 },
        },
      ],
      provider_usage_raw: streamChunk.usage,
      transaction_id: "chatcmpl-123",
    });
  });

  it("refuses a stream chunk that carries no usage, saying why", () => {
    const chunk = { ...streamChunk, usage: null };
    expect(() => fromOpenAI(chunk)).toThrow(UsageNotFoundError);
    expect(() => fromOpenAI(chunk)).toThrow(/include_usage/);
  });

  it("sends audio tokens of a chat completion as side-specific breakdowns", () => {
    const response = {
      ...chat,
      model: "gpt-4o-audio-preview",
      usage: {
        ...chat.usage,
        prompt_tokens_details: { cached_tokens: 0, audio_tokens: 200 },
        completion_tokens_details: { ...chat.usage.completion_tokens_details, audio_tokens: 30 },
      },
    };
    expect(fromOpenAI(response).usage[0]?.metrics).toEqual({
      input_tokens: 1117,
      output_tokens: 46,
      total_tokens: 1163,
      input_audio_tokens: 200,
      output_audio_tokens: 30,
    });
  });

  it("maps a Responses API response", () => {
    expect(fromOpenAI(responses)).toEqual({
      provider: "openai",
      model: "gpt-4.1-2025-04-14",
      usage: [{ type: "tokens", metrics: { input_tokens: 36, output_tokens: 87, total_tokens: 123 } }],
      provider_usage_raw: responses.usage,
      transaction_id: "resp_67ccd2bed1ec8190b14f964abc0542670bb6a6b452d3795b",
    });
  });

  it("keeps reasoning tokens inside the output count, as OpenAI reports them", () => {
    const response = { id: "resp_reasoning", object: "response", model: "o4-mini", ...reasoning };
    expect(fromOpenAI(response).usage).toEqual([
      {
        type: "tokens",
        metrics: { input_tokens: 75, output_tokens: 1186, total_tokens: 1261, reasoning_tokens: 1024 },
      },
    ]);
  });

  it("counts the web searches of a Responses API answer, and reads the response.completed event", () => {
    const searched = { ...responses, output: [{ type: "web_search_call", id: "ws_1", status: "completed" }] };
    expect(fromOpenAI({ type: "response.completed", response: searched }).usage).toEqual([
      { type: "tokens", metrics: { input_tokens: 36, output_tokens: 87, total_tokens: 123 } },
      { type: "requests", metrics: { count: 1, request_type: "web_search" } },
    ]);
  });

  it("maps a Realtime response.done with its modality and cache breakdowns", () => {
    expect(fromOpenAI(realtime, { model: "gpt-realtime" })).toEqual({
      provider: "openai",
      model: "gpt-realtime",
      usage: [
        {
          type: "tokens",
          metrics: {
            input_tokens: 132,
            output_tokens: 121,
            total_tokens: 253,
            cached_tokens: 64,
            input_audio_tokens: 13,
            output_audio_tokens: 91,
          },
        },
      ],
      provider_usage_raw: realtime.response.usage,
      transaction_id: "resp_CCXHw0UJld10EzIUXQCNh",
    });
  });

  it("asks for the model where the response does not name it", () => {
    expect(() => fromOpenAI(realtime)).toThrow(/`model` option/);
  });

  it("maps image generation tokens: text and image input, image output", () => {
    expect(fromOpenAI(imageGeneration, { model: "gpt-image-1" })).toEqual({
      provider: "openai",
      model: "gpt-image-1",
      usage: [
        {
          type: "tokens",
          metrics: {
            input_tokens: 50,
            output_tokens: 50,
            total_tokens: 100,
            input_image_tokens: 40,
            output_image_tokens: 50,
          },
        },
      ],
      provider_usage_raw: imageGeneration.usage,
    });
  });

  it("maps a transcription billed by tokens, audio on the input side", () => {
    expect(fromOpenAI(transcriptionTokens, { model: "gpt-4o-transcribe" }).usage).toEqual([
      {
        type: "tokens",
        metrics: { input_tokens: 14, output_tokens: 45, total_tokens: 59, input_audio_tokens: 14 },
      },
    ]);
  });

  it("maps a transcription billed by duration to audio seconds", () => {
    expect(fromOpenAI(transcriptionDuration, { model: "whisper-1" })).toEqual({
      provider: "openai",
      model: "whisper-1",
      usage: [{ type: "audio_seconds", metrics: { input_seconds: 9 } }],
      provider_usage_raw: { type: "duration", seconds: 9 },
    });
  });

  it("maps speech usage: text in, audio tokens out", () => {
    expect(fromOpenAI(speech, { model: "gpt-4o-mini-tts" }).usage).toEqual([
      {
        type: "tokens",
        metrics: { input_tokens: 14, output_tokens: 101, total_tokens: 115, output_audio_tokens: 101 },
      },
    ]);
  });
});
