import Anthropic, * as anthropicModule from "@anthropic-ai/sdk";
import { type Attributes, SpanKind } from "@opentelemetry/api";
import type { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { AnthropicInstrumentation as OpenLLMetryAnthropic } from "@traceloop/instrumentation-anthropic";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { priceQueued } from "../setup/client.ts";
import { startTestGateway } from "../setup/gateway.ts";
import { pullableTopic, seedOrganization, uniqueId } from "../setup/harness.ts";
import { anthropicStandIn, customerCost, queuedSince, tracedExport } from "../setup/otlp-instrumented.ts";

/**
 * OpenLLMetry's real Anthropic instrumentation around the real Anthropic SDK, exporting through the
 * OpenTelemetry SDK's protobuf exporter to POST /v1/traces, then the worker, to the exact cost GET
 * /usage/costs reports. Anthropic is a local stand-in serving its documented response shapes. The
 * Python instrumentation cannot be installed here: its span is built exactly as its source writes it.
 *
 * Expected costs by hand from Anthropic's pricing page (https://docs.anthropic.com/en/docs/about-claude/pricing,
 * read 2026-11-29), Claude Sonnet 4, USD per million tokens: base input 3, 5-minute cache writes 3.75,
 * cache hits 0.30, output 15; i.e. nano-USD per token: 3000, 3750, 300, 15000.
 */
const SONNET_4 = "claude-sonnet-4-20250514";

/** One message of 300 uncached input, 8,000 cache-read, 1,200 cache-write and 500 output tokens. */
const CACHED = {
  input_tokens: 300,
  cache_read_input_tokens: 8000,
  cache_creation_input_tokens: 1200,
  output_tokens: 500,
};
// 300 x 3000 + 8000 x 300 + 1200 x 3750 + 500 x 15000 = 900 000 + 2 400 000 + 4 500 000 + 7 500 000
const CACHED_NANOS = 15_300_000;

let org: Awaited<ReturnType<typeof seedOrganization>>;
let topic: Awaited<ReturnType<typeof pullableTopic>>;
let gateway: Awaited<ReturnType<typeof startTestGateway>>;
let vendor: Awaited<ReturnType<typeof anthropicStandIn>>;
const openLLMetry = new OpenLLMetryAnthropic();

beforeAll(async () => {
  org = await seedOrganization();
  topic = await pullableTopic();
  gateway = await startTestGateway({ topicName: topic.topicName });
  vendor = await anthropicStandIn(SONNET_4);
  openLLMetry.manuallyInstrument(anthropicModule as never);
});
afterAll(async () => {
  await vendor?.close();
  await gateway?.close();
});

const target = () => ({ url: gateway.baseUrl, apiKey: org.apiKey, readKey: org.readKey });

/** An Anthropic client against the stand-in; its own spans on (through `provider`) or off. */
const anthropic = (provider: NodeTracerProvider | undefined) =>
  new Anthropic({
    apiKey: "sk-ant-test",
    baseURL: vendor.url,
    openTelemetry: provider ? { tracerProvider: provider } : false,
  });

const ask = { model: SONNET_4, max_tokens: 1024, messages: [{ role: "user" as const, content: "Hello" }] };

describe("OpenLLMetry for Anthropic (JavaScript 0.27.0, Python 0.62.1), exact and once", () => {
  it("bills a cached message exactly from the JavaScript instrumentation's spans", async () => {
    const customer = uniqueId("openllmetry-js");
    vendor.answer({ id: uniqueId("msg"), usage: CACHED });
    await tracedExport(target(), customer, async (provider) => {
      openLLMetry.setTracerProvider(provider);
      await anthropic(undefined).messages.create(ask);
    });
    const [record] = [...(await priceQueued(topic, org.organizationId, 1)).values()];
    expect(record).toMatchObject({ status: "priced", provider: "anthropic", model: SONNET_4 });
    expect(await customerCost(target(), customer)).toEqual({ cost_nanos: CACHED_NANOS, transactions: 1 });
  });

  it("bills a streamed message exactly", async () => {
    const customer = uniqueId("openllmetry-js-stream");
    // 40 uncached input, 2,000 cache-read, 120 output: 40 x 3000 + 2000 x 300 + 120 x 15000
    vendor.answer({
      id: uniqueId("msg"),
      usage: { input_tokens: 40, cache_read_input_tokens: 2000, cache_creation_input_tokens: 0, output_tokens: 120 },
    });
    await tracedExport(target(), customer, async (provider) => {
      openLLMetry.setTracerProvider(provider);
      const stream = await anthropic(undefined).messages.create({ ...ask, stream: true });
      for await (const _ of stream) {
        // read to the end: the span ends with the stream
      }
    });
    await priceQueued(topic, org.organizationId, 1);
    expect(await customerCost(target(), customer)).toEqual({ cost_nanos: 2_520_000, transactions: 1 });
  });

  it("bills the Python instrumentation's inclusive count exactly too", async () => {
    const customer = uniqueId("openllmetry-py");
    // As opentelemetry-instrumentation-anthropic 0.62.1 writes a message's span (traceloop/openllmetry,
    // packages/opentelemetry-instrumentation-anthropic/opentelemetry/instrumentation/anthropic/__init__.py:
    // the span started in _wrap with gen_ai.provider.name and gen_ai.operation.name; span_utils.py
    // set_response_attributes for the model and id; _set_token_usage for the counts, input_tokens being
    // usage.input_tokens + cache_read_input_tokens + cache_creation_input_tokens), its scope the module's
    // name and __version__ (get_tracer(__name__, __version__)).
    const attributes: Attributes = {
      "gen_ai.provider.name": "anthropic",
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": SONNET_4,
      "gen_ai.response.model": SONNET_4,
      "gen_ai.response.id": uniqueId("msg"),
      "gen_ai.usage.input_tokens": 9500,
      "gen_ai.usage.output_tokens": 500,
      "gen_ai.usage.total_tokens": 10_000,
      "gen_ai.usage.cache_read.input_tokens": 8000,
      "gen_ai.usage.cache_creation.input_tokens": 1200,
    };
    await tracedExport(target(), customer, async (provider) => {
      provider
        .getTracer("opentelemetry.instrumentation.anthropic", "0.62.1")
        .startSpan("chat claude-sonnet-4-20250514", { kind: SpanKind.CLIENT, attributes })
        .end();
    });
    await priceQueued(topic, org.organizationId, 1);
    expect(await customerCost(target(), customer)).toEqual({ cost_nanos: CACHED_NANOS, transactions: 1 });
  });

  it.each([
    ["one export (the batch processor)", "batch"],
    ["an export per span (the simple processor)", "simple"],
  ] as const)("bills its span around the SDK's own span for the same call once: %s", async (_, processor) => {
    const customer = uniqueId(`openllmetry-and-sdk-${processor}`);
    const since = gateway.logger.lines.length;
    vendor.answer({ id: uniqueId("msg"), usage: CACHED });
    await tracedExport(
      target(),
      customer,
      async (provider) => {
        openLLMetry.setTracerProvider(provider);
        await anthropic(provider).messages.create(ask);
      },
      processor,
    );
    expect(queuedSince(gateway.logger, org.organizationId, since)).toBe(1);
    const [record] = [...(await priceQueued(topic, org.organizationId, 1)).values()];
    // The SDK's span, with the response id, is the one billed.
    expect(record).toMatchObject({ status: "priced", transaction_id: expect.stringMatching(/^msg-/) });
    expect(await customerCost(target(), customer)).toEqual({ cost_nanos: CACHED_NANOS, transactions: 1 });
  });
});
