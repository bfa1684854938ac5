import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Anthropic, * as anthropicModule from "@anthropic-ai/sdk";
import { type Attributes, SpanKind } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { AnthropicInstrumentation as OpenLLMetryAnthropic } from "@traceloop/instrumentation-anthropic";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { priceQueued } from "../setup/client.ts";
import { startTestGateway } from "../setup/gateway.ts";
import { pullableTopic, seedOrganization, uniqueId } from "../setup/harness.ts";

/**
 * Real instrumentation libraries around the real vendor SDKs, exporting through the OpenTelemetry SDK's
 * protobuf exporter to POST /v1/traces, then the worker, to the exact cost GET /usage/costs reports. The
 * vendor is a local stand-in serving its documented response shapes. Python instrumentations cannot be
 * installed here: their spans are built exactly as their source writes them, each citing file and version.
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

/** Stand-in for Anthropic's Messages API: each POST /v1/messages answers the next usage queued, JSON or SSE. */
const answers: Array<{ id: string; usage: Record<string, number> }> = [];
let vendor: Server;
const messageOf = (id: string, usage: Record<string, number>) => ({
  id,
  type: "message",
  role: "assistant",
  model: SONNET_4,
  content: [{ type: "text", text: "Hello" }],
  stop_reason: "end_turn",
  stop_sequence: null,
  usage,
});
function answer(body: string, res: import("node:http").ServerResponse) {
  const next = answers.shift();
  if (!next) {
    res.writeHead(500).end();
    return;
  }
  if (!(JSON.parse(body) as { stream?: boolean }).stream) {
    res.writeHead(200, { "content-type": "application/json", "request-id": `req_${next.id}` });
    res.end(JSON.stringify(messageOf(next.id, next.usage)));
    return;
  }
  // Streaming: message_start carries the input counts, message_delta the final output count.
  const { output_tokens, ...input } = next.usage;
  const events: Array<[string, unknown]> = [
    [
      "message_start",
      { type: "message_start", message: { ...messageOf(next.id, { ...input, output_tokens: 1 }), content: [] } },
    ],
    ["content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }],
    ["content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hello" } }],
    ["content_block_stop", { type: "content_block_stop", index: 0 }],
    [
      "message_delta",
      { type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens } },
    ],
    ["message_stop", { type: "message_stop" }],
  ];
  res.writeHead(200, { "content-type": "text/event-stream" });
  res.end(events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join(""));
}

let org: Awaited<ReturnType<typeof seedOrganization>>;
let topic: Awaited<ReturnType<typeof pullableTopic>>;
let gateway: Awaited<ReturnType<typeof startTestGateway>>;
const openLLMetry = new OpenLLMetryAnthropic();

beforeAll(async () => {
  org = await seedOrganization();
  topic = await pullableTopic();
  gateway = await startTestGateway({ topicName: topic.topicName });
  vendor = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => answer(body, res));
  });
  await new Promise<void>((resolve) => vendor.listen(0, "127.0.0.1", resolve));
  openLLMetry.manuallyInstrument(anthropicModule as never);
});
afterAll(async () => {
  openLLMetry.disable();
  vendor?.close();
  await gateway?.close();
});

/**
 * A tracer provider whose spans carry `customer` as the resource's service.name (the default customer),
 * exported in one batch when `run` is done, through the protobuf exporter.
 */
async function traced(customer: string, run: (provider: NodeTracerProvider) => Promise<void>) {
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ "service.name": customer }),
    spanProcessors: [
      new BatchSpanProcessor(
        new OTLPTraceExporter({ url: `${gateway.baseUrl}/v1/traces`, headers: { "X-Api-Key": org.apiKey } }),
      ),
    ],
  });
  await run(provider);
  await provider.forceFlush();
  await provider.shutdown();
}

/** An Anthropic client against the stand-in; its own spans on (through `provider`) or off. */
const anthropic = (provider: NodeTracerProvider | undefined) =>
  new Anthropic({
    apiKey: "sk-ant-test",
    baseURL: `http://127.0.0.1:${(vendor.address() as AddressInfo).port}`,
    openTelemetry: provider ? { tracerProvider: provider } : false,
  });

const ask = { model: SONNET_4, max_tokens: 1024, messages: [{ role: "user" as const, content: "Hello" }] };

/** What GET /usage/costs reports for one customer. */
async function costOf(customer: string) {
  const response = await fetch(`${gateway.baseUrl}/usage/costs?group_by=billable_customer_id`, {
    headers: { "x-api-key": org.readKey },
  });
  const body = (await response.json()) as {
    groups: Array<{ key: Record<string, string>; cost_nanos: string; transactions: number }>;
  };
  const group = body.groups.find((g) => g.key.billable_customer_id === customer);
  return { cost_nanos: Number(group?.cost_nanos ?? 0), transactions: group?.transactions ?? 0 };
}

describe("OpenLLMetry for Anthropic (JavaScript 0.27.0, Python 0.62.1), exact and once", () => {
  it("bills a cached message exactly from the JavaScript instrumentation's spans", async () => {
    const customer = uniqueId("openllmetry-js");
    answers.push({ id: uniqueId("msg"), usage: CACHED });
    await traced(customer, async (provider) => {
      openLLMetry.setTracerProvider(provider);
      await anthropic(undefined).messages.create(ask);
    });
    const [record] = [...(await priceQueued(topic, org.organizationId, 1)).values()];
    expect(record).toMatchObject({ status: "priced", provider: "anthropic", model: SONNET_4 });
    expect(await costOf(customer)).toEqual({ cost_nanos: CACHED_NANOS, transactions: 1 });
  });

  it("bills a streamed message exactly", async () => {
    const customer = uniqueId("openllmetry-js-stream");
    // 40 uncached input, 2,000 cache-read, 120 output: 40 x 3000 + 2000 x 300 + 120 x 15000
    answers.push({
      id: uniqueId("msg"),
      usage: { input_tokens: 40, cache_read_input_tokens: 2000, cache_creation_input_tokens: 0, output_tokens: 120 },
    });
    await traced(customer, async (provider) => {
      openLLMetry.setTracerProvider(provider);
      const stream = await anthropic(undefined).messages.create({ ...ask, stream: true });
      for await (const _ of stream) {
        // read to the end: the span ends with the stream
      }
    });
    await priceQueued(topic, org.organizationId, 1);
    expect(await costOf(customer)).toEqual({ cost_nanos: 2_520_000, transactions: 1 });
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
    await traced(customer, async (provider) => {
      provider
        .getTracer("opentelemetry.instrumentation.anthropic", "0.62.1")
        .startSpan("chat claude-sonnet-4-20250514", { kind: SpanKind.CLIENT, attributes })
        .end();
    });
    await priceQueued(topic, org.organizationId, 1);
    expect(await costOf(customer)).toEqual({ cost_nanos: CACHED_NANOS, transactions: 1 });
  });
});
