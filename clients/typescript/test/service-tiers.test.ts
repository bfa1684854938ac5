import { describe, expect, it } from "vitest";
import { fromAnthropic, fromAnthropicStream } from "../src/adapters/anthropic.ts";
import { fromBedrock } from "../src/adapters/bedrock.ts";
import { UsageNotFoundError } from "../src/adapters/common.ts";
import { fromDeepSeek } from "../src/adapters/deepseek.ts";
import { fromGemini } from "../src/adapters/gemini.ts";
import { fromOpenAI } from "../src/adapters/openai.ts";
import { fromXai } from "../src/adapters/xai.ts";
import anthropicBatchLine from "./fixtures/anthropic/batch-result-line.json" with { type: "json" };
import anthropicMessage from "./fixtures/anthropic/message.json" with { type: "json" };
import anthropicStream from "./fixtures/anthropic/stream-events.json" with { type: "json" };
import converse from "./fixtures/bedrock/converse.json" with { type: "json" };
import streamMetadata from "./fixtures/bedrock/converse-stream-metadata.json" with { type: "json" };
import deepseekChat from "./fixtures/deepseek/chat-completion.json" with { type: "json" };
import geminiThinking from "./fixtures/gemini/generate-content-thinking.json" with { type: "json" };
import openaiBatchLine from "./fixtures/openai/batch-output-line.json" with { type: "json" };
import chatCompletion from "./fixtures/openai/chat-completion.json" with { type: "json" };
import openaiChunk from "./fixtures/openai/chat-stream-usage-chunk.json" with { type: "json" };
import realtimeDone from "./fixtures/openai/realtime-response-done.json" with { type: "json" };
import openaiResponses from "./fixtures/openai/responses.json" with { type: "json" };
import xaiReasoning from "./fixtures/xai/chat-completion-reasoning.json" with { type: "json" };
import xaiResponses from "./fixtures/xai/responses.json" with { type: "json" };

// Each vendor's documented response with the tier field its API reference gives (sources in each adapter
// and in test/fixtures/SOURCES.md); `model_tier` is what the worker prices (docs/pricing.md, "Service tiers").
describe("model_tier from the tier the response reports", () => {
  describe("OpenAI service_tier", () => {
    it.each([
      ["priority", "priority"],
      // Fast mode is Priority processing renamed: one product, one price row.
      ["fast", "priority"],
      ["flex", "flex"],
      // No published token price: sent as reported, so the worker stores it unpriced with the reason.
      ["scale", "scale"],
      ["ultrafast", "ultrafast"],
    ])("a chat completion served at %s is sent as %s", (served, tier) => {
      expect(fromOpenAI({ ...chatCompletion, service_tier: served }).model_tier).toBe(tier);
      expect(fromOpenAI({ ...openaiChunk, service_tier: served }).model_tier).toBe(tier);
    });

    it("reads the Responses API's service_tier, on the response and on its response.completed event", () => {
      const flex = { ...openaiResponses, service_tier: "flex" };
      expect(fromOpenAI(flex).model_tier).toBe("flex");
      expect(fromOpenAI({ type: "response.completed", response: flex }).model_tier).toBe("flex");
    });

    it.each(["default", "auto", "DEFAULT", null])("sends no tier for service_tier %s (the list price)", (served) => {
      const usage = fromOpenAI({ ...chatCompletion, service_tier: served });
      expect(usage).not.toHaveProperty("model_tier");
      expect(usage.usage).toEqual(fromOpenAI(chatCompletion).usage);
    });

    it("sends no tier for a response that reports none (Realtime)", () => {
      expect(fromOpenAI(realtimeDone, { model: "gpt-realtime" })).not.toHaveProperty("model_tier");
    });

    it("bills a Batch API output line as batch, with its body's usage and id", () => {
      expect(fromOpenAI(openaiBatchLine)).toEqual({
        provider: "openai",
        model: "gpt-3.5-turbo-0125",
        model_tier: "batch",
        usage: [{ type: "tokens", metrics: { input_tokens: 22, output_tokens: 2, total_tokens: 24 } }],
        provider_usage_raw: openaiBatchLine.response.body.usage,
        transaction_id: "chatcmpl-123",
      });
      // The body's own service_tier does not make a batch result a list-price call.
      const said = { ...openaiBatchLine.response.body, service_tier: "default" };
      expect(fromOpenAI({ ...openaiBatchLine, response: { ...openaiBatchLine.response, body: said } }).model_tier).toBe(
        "batch",
      );
    });

    it("refuses a batch line that failed (no response body) instead of sending zeros", () => {
      const failed = {
        id: "batch_req_456",
        custom_id: "request-3",
        response: null,
        error: { code: "x", message: "y" },
      };
      expect(() => fromOpenAI(failed)).toThrow(UsageNotFoundError);
      expect(() => fromOpenAI(failed)).toThrow(/no response body/);
    });
  });

  describe("Anthropic usage.speed and usage.service_tier", () => {
    const withUsage = (extra: Record<string, unknown>) => ({
      ...anthropicMessage,
      usage: { ...anthropicMessage.usage, ...extra },
    });

    it("sends fast mode (speed: fast) as fast, whatever the service tier", () => {
      expect(fromAnthropic(withUsage({ speed: "fast" })).model_tier).toBe("fast");
      expect(fromAnthropic(withUsage({ speed: "fast", service_tier: "standard" })).model_tier).toBe("fast");
    });

    it("sends the service tier otherwise: batch and priority as reported, standard as none", () => {
      expect(fromAnthropic(withUsage({ service_tier: "batch" })).model_tier).toBe("batch");
      expect(fromAnthropic(withUsage({ speed: "standard", service_tier: "priority" })).model_tier).toBe("priority");
      expect(fromAnthropic(anthropicMessage)).not.toHaveProperty("model_tier");
      expect(fromAnthropic(withUsage({ speed: "standard" }))).not.toHaveProperty("model_tier");
    });

    it("finds fast mode in a stream's usage", () => {
      const events = anthropicStream.map((event) =>
        event.type === "message_start" && event.message
          ? { ...event, message: { ...event.message, usage: { ...event.message.usage, speed: "fast" } } }
          : event,
      );
      expect(fromAnthropicStream(events).model_tier).toBe("fast");
      expect(fromAnthropicStream(anthropicStream)).not.toHaveProperty("model_tier");
    });

    it("bills a succeeded Message Batches result as batch, with its message's usage and id", () => {
      expect(fromAnthropic(anthropicBatchLine)).toEqual({
        provider: "anthropic",
        model: "claude-3-5-sonnet-20240620",
        model_tier: "batch",
        usage: [{ type: "tokens", metrics: { input_tokens: 10, output_tokens: 34, total_tokens: 44 } }],
        provider_usage_raw: anthropicBatchLine.result.message.usage,
        transaction_id: "msg_01FqfsLoHwgeFbguDgpz48m7",
      });
    });

    it("refuses a batch result that did not succeed", () => {
      const errored = {
        custom_id: "my-third-request",
        result: { type: "errored", error: { type: "error", error: { type: "invalid_request_error", message: "x" } } },
      };
      expect(() => fromAnthropic(errored)).toThrow(UsageNotFoundError);
      expect(() => fromAnthropic({ custom_id: "r", result: { type: "expired" } })).toThrow(/"expired"/);
    });
  });

  describe("Gemini usageMetadata.trafficType (Vertex AI) and x-gemini-service-tier (Gemini API)", () => {
    const traffic = (trafficType: string) => ({
      ...geminiThinking,
      usageMetadata: { ...geminiThinking.usageMetadata, trafficType },
    });

    it.each([
      ["ON_DEMAND_PRIORITY", "priority"],
      ["ON_DEMAND_FLEX", "flex"],
      ["PROVISIONED_THROUGHPUT", "provisioned_throughput"],
    ])("sends trafficType %s as %s", (trafficType, tier) => {
      expect(fromGemini(traffic(trafficType)).model_tier).toBe(tier);
    });

    it.each(["ON_DEMAND", "TRAFFIC_TYPE_UNSPECIFIED"])("sends no tier for trafficType %s", (trafficType) => {
      expect(fromGemini(traffic(trafficType))).not.toHaveProperty("model_tier");
    });

    it("reads the tier header the SDK keeps, as a plain object or as Headers", () => {
      const plain = { ...geminiThinking, sdkHttpResponse: { headers: { "X-Gemini-Service-Tier": "flex" } } };
      expect(fromGemini(plain).model_tier).toBe("flex");
      const headers = new Headers({ "x-gemini-service-tier": "priority" });
      expect(fromGemini({ ...geminiThinking, sdkHttpResponse: { headers } }).model_tier).toBe("priority");
      // A priority request downgraded when over its limit says so: billed at the list price.
      const downgraded = { ...geminiThinking, sdkHttpResponse: { headers: { "x-gemini-service-tier": "standard" } } };
      expect(fromGemini(downgraded)).not.toHaveProperty("model_tier");
      expect(fromGemini(geminiThinking)).not.toHaveProperty("model_tier");
    });

    it("reads the tier from the last chunk of a stream", () => {
      const chunks = [{ candidates: [] }, traffic("ON_DEMAND_FLEX")];
      expect(fromGemini(chunks).model_tier).toBe("flex");
    });

    it("bills a Batch API response (file line or inlined response) as batch", () => {
      const line = { key: "request-1", response: geminiThinking };
      expect(fromGemini(line)).toEqual({ ...fromGemini(geminiThinking), model_tier: "batch" });
    });
  });

  describe("Bedrock serviceTier and performanceConfig", () => {
    const modelId = "amazon.nova-pro-v1:0";

    it.each([
      [{ serviceTier: { type: "priority" } }, "priority"],
      [{ serviceTier: { type: "flex" } }, "flex"],
      [{ serviceTier: { type: "reserved" } }, "reserved"],
      [{ performanceConfig: { latency: "optimized" } }, "latency_optimized"],
      [{ serviceTier: { type: "default" }, performanceConfig: { latency: "optimized" } }, "latency_optimized"],
    ])("sends %j as %s", (reported, tier) => {
      expect(fromBedrock({ ...converse, ...reported }, { modelId }).model_tier).toBe(tier);
      // The ConverseStream metadata event carries the same two fields.
      const event = { metadata: { ...streamMetadata.metadata, ...reported } };
      expect(fromBedrock(event, { modelId }).model_tier).toBe(tier);
    });

    it("sends no tier for the default tier and standard latency", () => {
      const standard = { ...converse, serviceTier: { type: "default" }, performanceConfig: { latency: "standard" } };
      expect(fromBedrock(standard, { modelId })).not.toHaveProperty("model_tier");
      expect(fromBedrock(converse, { modelId })).not.toHaveProperty("model_tier");
    });
  });

  describe("xAI service_tier", () => {
    it("sends priority as priority and default as none, on both APIs", () => {
      expect(fromXai({ ...xaiReasoning, service_tier: "priority" }).model_tier).toBe("priority");
      expect(fromXai({ ...xaiResponses, service_tier: "priority" }).model_tier).toBe("priority");
      expect(fromXai(xaiResponses)).not.toHaveProperty("model_tier");
    });
  });

  it("DeepSeek reports no tier and none is sent", () => {
    expect(fromDeepSeek(deepseekChat)).not.toHaveProperty("model_tier");
  });
});
