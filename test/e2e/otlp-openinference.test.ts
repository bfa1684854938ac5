import Anthropic, * as anthropicModule from "@anthropic-ai/sdk";
import { AnthropicInstrumentation } from "@arizeai/openinference-instrumentation-anthropic";
import { OpenAIInstrumentation } from "@arizeai/openinference-instrumentation-openai";
import type { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import OpenAI, * as openaiModule from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { priceQueued } from "../setup/client.ts";
import { startTestGateway } from "../setup/gateway.ts";
import { pullableTopic, seedOrganization, uniqueId } from "../setup/harness.ts";
import { anthropicStandIn, customerCost, queuedSince, standIn, tracedExport } from "../setup/otlp-instrumented.ts";

/**
 * OpenInference's real instrumentations (the ones behind Arize Phoenix) around the real Anthropic and
 * OpenAI SDKs, each calling a local stand-in serving the vendor's documented response shapes, exported
 * through the OpenTelemetry SDK's protobuf exporter to POST /v1/traces, the worker and GET /usage/costs.
 * Their spans carry no gen_ai.* attribute: llm.* and openinference.span.kind only.
 *
 * Expected costs by hand, USD per million tokens:
 * - Claude Sonnet 4 (https://docs.anthropic.com/en/docs/about-claude/pricing, read 2026-11-29): base input
 *   3, 5-minute cache writes 3.75, cache hits 0.30, output 15.
 * - gpt-4o-mini (https://platform.openai.com/docs/pricing, as read 2026-11-22 for the OTLP pipeline test):
 *   input 0.15, cached input 0.075, output 0.60; reasoning is billed as output.
 * - gpt-4o-mini-audio-preview (https://developers.openai.com/api/docs/models/gpt-4o-mini-audio-preview.md,
 *   read 2026-11-29): text tokens input 0.15, output 0.6; audio tokens input 10, output 20.
 */
const SONNET_4 = "claude-sonnet-4-20250514";

let org: Awaited<ReturnType<typeof seedOrganization>>;
let topic: Awaited<ReturnType<typeof pullableTopic>>;
let gateway: Awaited<ReturnType<typeof startTestGateway>>;
let claude: Awaited<ReturnType<typeof anthropicStandIn>>;
let openaiVendor: Awaited<ReturnType<typeof standIn>>;
const anthropicInstrumentation = new AnthropicInstrumentation();
const openaiInstrumentation = new OpenAIInstrumentation();

/** OpenAI's Chat Completions and Responses answers in their documented shapes (by the request's fields). */
const openaiAnswer = (id: string, model: string, usage: Record<string, unknown>, request: Record<string, unknown>) =>
  "input" in request
    ? {
        id,
        object: "response",
        created_at: 1_764_374_400,
        status: "completed",
        model,
        output: [
          {
            type: "message",
            id: `msg_${id}`,
            status: "completed",
            role: "assistant",
            content: [{ type: "output_text", text: "Hello", annotations: [] }],
          },
        ],
        usage,
      }
    : {
        id,
        object: "chat.completion",
        created: 1_764_374_400,
        model,
        choices: [{ index: 0, message: { role: "assistant", content: "Hello" }, finish_reason: "stop" }],
        usage,
      };

beforeAll(async () => {
  org = await seedOrganization();
  topic = await pullableTopic();
  gateway = await startTestGateway({ topicName: topic.topicName });
  claude = await anthropicStandIn(SONNET_4);
  openaiVendor = await standIn(({ id, usage }, request, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(openaiAnswer(id, String(request.model), usage, request)));
  });
  anthropicInstrumentation.manuallyInstrument(anthropicModule as never);
  openaiInstrumentation.manuallyInstrument(openaiModule as never);
});
afterAll(async () => {
  await claude?.close();
  await openaiVendor?.close();
  await gateway?.close();
});

const target = () => ({ url: gateway.baseUrl, apiKey: org.apiKey, readKey: org.readKey });

const anthropic = (provider: NodeTracerProvider | undefined) =>
  new Anthropic({
    apiKey: "sk-ant-test",
    baseURL: claude.url,
    openTelemetry: provider ? { tracerProvider: provider } : false,
  });
const openai = () => new OpenAI({ apiKey: "sk-test", baseURL: `${openaiVendor.url}/v1` });
const hello = [{ role: "user" as const, content: "Hello" }];

describe("OpenInference (JavaScript), LLM spans read in full, exact and once", () => {
  const cached = {
    input_tokens: 300,
    cache_read_input_tokens: 8000,
    cache_creation_input_tokens: 1200,
    output_tokens: 500,
  };
  // 300 x 3000 + 8000 x 300 + 1200 x 3750 + 500 x 15000 nano-USD = 900 000 + 2 400 000 + 4 500 000 + 7 500 000
  const cachedNanos = 15_300_000;

  it("Anthropic: a message with cache reads and writes", async () => {
    const customer = uniqueId("openinference-anthropic");
    claude.answer({ id: uniqueId("msg"), usage: cached });
    await tracedExport(target(), customer, async (provider) => {
      anthropicInstrumentation.setTracerProvider(provider);
      await anthropic(undefined).messages.create({ model: SONNET_4, max_tokens: 1024, messages: hello });
    });
    const [record] = [...(await priceQueued(topic, org.organizationId, 1)).values()];
    expect(record).toMatchObject({ status: "priced", provider: "anthropic", model: SONNET_4 });
    expect(await customerCost(target(), customer)).toEqual({ cost_nanos: cachedNanos, transactions: 1 });
  });

  it("Anthropic: its LLM span around the SDK's own span for the same call is billed once", async () => {
    const customer = uniqueId("openinference-and-sdk");
    const since = gateway.logger.lines.length;
    claude.answer({ id: uniqueId("msg"), usage: cached });
    await tracedExport(target(), customer, async (provider) => {
      anthropicInstrumentation.setTracerProvider(provider);
      await anthropic(provider).messages.create({ model: SONNET_4, max_tokens: 1024, messages: hello });
    });
    expect(queuedSince(gateway.logger, org.organizationId, since)).toBe(1);
    await priceQueued(topic, org.organizationId, 1);
    expect(await customerCost(target(), customer)).toEqual({ cost_nanos: cachedNanos, transactions: 1 });
  });

  it("OpenAI Chat Completions with cached input", async () => {
    const customer = uniqueId("openinference-openai-chat");
    // (2006 - 1920) x 150 + 1920 x 75 + 300 x 600 nano-USD = 12 900 + 144 000 + 180 000
    openaiVendor.answer({
      id: uniqueId("chatcmpl"),
      usage: {
        prompt_tokens: 2006,
        completion_tokens: 300,
        total_tokens: 2306,
        prompt_tokens_details: { cached_tokens: 1920, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 },
      },
    });
    await tracedExport(target(), customer, async (provider) => {
      openaiInstrumentation.setTracerProvider(provider);
      await openai().chat.completions.create({ model: "gpt-4o-mini", messages: hello });
    });
    const [record] = [...(await priceQueued(topic, org.organizationId, 1)).values()];
    expect(record).toMatchObject({ status: "priced", provider: "openai", model: "gpt-4o-mini" });
    expect(await customerCost(target(), customer)).toEqual({ cost_nanos: 336_900, transactions: 1 });
  });

  it("OpenAI Responses with reasoning inside the output", async () => {
    const customer = uniqueId("openinference-openai-responses");
    // 1000 x 150 + 800 x 600 (600 of them reasoning, billed as output) = 150 000 + 480 000
    openaiVendor.answer({
      id: uniqueId("resp"),
      usage: {
        input_tokens: 1000,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: 800,
        output_tokens_details: { reasoning_tokens: 600 },
        total_tokens: 1800,
      },
    });
    await tracedExport(target(), customer, async (provider) => {
      openaiInstrumentation.setTracerProvider(provider);
      await openai().responses.create({ model: "gpt-4o-mini", input: "Hello" });
    });
    await priceQueued(topic, org.organizationId, 1);
    expect(await customerCost(target(), customer)).toEqual({ cost_nanos: 630_000, transactions: 1 });
  });

  it("OpenAI audio: the audio tokens of each side at their own rates", async () => {
    const customer = uniqueId("openinference-openai-audio");
    // input 900 of which 700 audio, output 300 of which 200 audio:
    // 200 x 150 + 700 x 10 000 + 100 x 600 + 200 x 20 000 = 30 000 + 7 000 000 + 60 000 + 4 000 000
    openaiVendor.answer({
      id: uniqueId("chatcmpl"),
      usage: {
        prompt_tokens: 900,
        completion_tokens: 300,
        total_tokens: 1200,
        prompt_tokens_details: { cached_tokens: 0, audio_tokens: 700 },
        completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 200 },
      },
    });
    await tracedExport(target(), customer, async (provider) => {
      openaiInstrumentation.setTracerProvider(provider);
      await openai().chat.completions.create({ model: "gpt-4o-mini-audio-preview", messages: hello });
    });
    const [record] = [...(await priceQueued(topic, org.organizationId, 1)).values()];
    expect(record).toMatchObject({ status: "priced", model: "gpt-4o-mini-audio-preview" });
    expect(await customerCost(target(), customer)).toEqual({ cost_nanos: 11_090_000, transactions: 1 });
  });
});
