import { OpenTelemetry } from "@ai-sdk/otel";
import { type Attributes, SpanKind } from "@opentelemetry/api";
import { OTLPTraceExporter as JsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as ProtobufExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { SimpleSpanProcessor, type SpanExporter } from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { createClient } from "@usage-ingestion/client";
import { generateText, registerTelemetry } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdmin } from "../../scripts/admin/main.ts";
import { priceQueued } from "../setup/client.ts";
import { startTestGateway } from "../setup/gateway.ts";
import { firestore, pullableTopic, seedOrganization } from "../setup/harness.ts";

/**
 * Spans exported by the OpenTelemetry SDK's own OTLP exporters (protobuf with gzip, and JSON) and by the
 * Vercel AI SDK's telemetry, through the gateway's POST /v1/traces, Pub/Sub and the worker, to the exact
 * cost GET /usage/costs reports. Expected costs are worked out by hand from the vendors' price pages
 * (USD per million tokens, read 2026-11-22):
 * - OpenAI gpt-4o-mini: input 0.15, cached input 0.075, output 0.60 (https://platform.openai.com/docs/pricing)
 * - Anthropic Claude Haiku 3.5: input 0.80, 5-minute cache write 1.00, cache hit 0.08, output 4.00
 *   (https://docs.anthropic.com/en/docs/about-claude/pricing)
 * - Gemini 2.0 Flash: input 0.10 (text), output 0.40, thinking billed as output
 *   (https://ai.google.dev/gemini-api/docs/pricing)
 * The spans count as the GenAI conventions do: input includes cache reads and writes, output includes
 * reasoning. A mapping that forgot to convert would bill the cache twice and the costs would differ.
 */
const spans: Array<{ name: string; attributes: Attributes; cost_nanos: number; customer: string }> = [
  {
    // (2006 - 1920) x 0.15 + 1920 x 0.075 + 300 x 0.60 = 12 900 + 144 000 + 180 000
    name: "chat gpt-4o-mini",
    attributes: {
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "openai",
      "gen_ai.request.model": "gpt-4o-mini",
      "gen_ai.response.id": "chatcmpl-otel-openai",
      "gen_ai.usage.input_tokens": 2006,
      "gen_ai.usage.cache_read.input_tokens": 1920,
      "gen_ai.usage.output_tokens": 300,
      "enduser.id": "cust-openai",
    },
    cost_nanos: 336_900,
    customer: "cust-openai",
  },
  {
    // input as OTel counts it: 2095 + 2051 read + 2051 written = 6197. Anthropic's own input is 2095:
    // 2095 x 0.80 + 2051 x 1.00 + 2051 x 0.08 + 503 x 4.00 = 1 676 000 + 2 051 000 + 164 080 + 2 012 000
    name: "chat claude-3-5-haiku",
    attributes: {
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "anthropic",
      "gen_ai.request.model": "claude-3-5-haiku-latest",
      "gen_ai.response.model": "claude-3-5-haiku-20241022",
      "gen_ai.usage.input_tokens": 6197,
      "gen_ai.usage.cache_read.input_tokens": 2051,
      "gen_ai.usage.cache_creation.input_tokens": 2051,
      "gen_ai.usage.output_tokens": 503,
      "enduser.id": "cust-anthropic",
    },
    cost_nanos: 5_903_080,
    customer: "cust-anthropic",
  },
  {
    // output as OTel counts it: 418 + 438 thoughts = 856. Gemini reports thoughts apart; billed as output:
    // 34 x 0.10 + (418 + 438) x 0.40 = 3 400 + 342 400
    name: "generate_content gemini-2.0-flash",
    attributes: {
      "gen_ai.operation.name": "generate_content",
      "gen_ai.provider.name": "gcp.gemini",
      "gen_ai.request.model": "gemini-2.0-flash",
      "gen_ai.usage.input_tokens": 34,
      "gen_ai.usage.output_tokens": 856,
      "gen_ai.usage.reasoning.output_tokens": 438,
      "enduser.id": "cust-gemini",
    },
    cost_nanos: 345_800,
    customer: "cust-gemini",
  },
];
const SPANS_NANOS = spans.reduce((sum, span) => sum + span.cost_nanos, 0);

let org: Awaited<ReturnType<typeof seedOrganization>>;
let topic: Awaited<ReturnType<typeof pullableTopic>>;
let gateway: Awaited<ReturnType<typeof startTestGateway>>;

beforeAll(async () => {
  org = await seedOrganization();
  topic = await pullableTopic();
  gateway = await startTestGateway({ topicName: topic.topicName });
});
afterAll(() => gateway?.close());

/** A tracer provider exporting each span as it ends, and the spans it exported, emitted by `emit`. */
async function exportWith(exporter: SpanExporter, emit: (provider: NodeTracerProvider) => Promise<void> | void) {
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ "service.name": "checkout" }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  await emit(provider);
  await provider.forceFlush();
  await provider.shutdown();
}

const otlp = (apiKey = org.apiKey) => ({ url: `${gateway.baseUrl}/v1/traces`, headers: { "X-Api-Key": apiKey } });

const costs = async (query: string, readKey = org.readKey) => {
  const response = await fetch(`${gateway.baseUrl}/usage/costs?${query}`, { headers: { "x-api-key": readKey } });
  expect(response.status).toBe(200);
  return response.json();
};

describe("OTLP exporters -> POST /v1/traces -> worker -> /usage/costs", () => {
  it("prices each GenAI span exactly, from the protobuf exporter with gzip and the JSON exporter", async () => {
    const [first, ...rest] = spans;
    const emit = (list: typeof spans) => (provider: NodeTracerProvider) => {
      const tracer = provider.getTracer("otlp-pipeline-test");
      for (const { name, attributes } of list) tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes }).end();
      // Not a model call: ignored, neither billed nor rejected.
      tracer.startSpan("GET /health", { attributes: { "http.request.method": "GET" } }).end();
    };
    await exportWith(
      new ProtobufExporter({ ...otlp(), compression: "gzip" as never }),
      emit([first as (typeof spans)[0]]),
    );
    await exportWith(new JsonExporter(otlp()), emit(rest));

    const records = [...(await priceQueued(topic, org.organizationId, spans.length)).values()];
    expect(records.map((record) => record.status)).toEqual(["priced", "priced", "priced"]);
    const body = await costs("group_by=billable_customer_id");
    expect(body.totals).toMatchObject({ cost_nanos: String(SPANS_NANOS), transactions: spans.length });
    const byCustomer = Object.fromEntries(
      body.groups.map((g: { key: Record<string, string>; cost_nanos: string }) => [
        g.key.billable_customer_id,
        g.cost_nanos,
      ]),
    );
    expect(byCustomer).toEqual(Object.fromEntries(spans.map((s) => [s.customer, String(s.cost_nanos)])));
  });

  it("bills a call reported both by the client package and as a span once", async () => {
    const before = (await costs("")).totals;
    // gpt-4o-mini: 1000 x 0.15 + 200 x 0.60 = 150 000 + 120 000 nano-USD
    const client = createClient({ baseUrl: gateway.baseUrl, apiKey: org.apiKey });
    client.track({
      provider: "openai",
      model: "gpt-4o-mini",
      transaction_id: "chatcmpl-both-ways",
      usage: [{ type: "tokens", metrics: { input_tokens: 1000, output_tokens: 200, total_tokens: 1200 } }],
      context: { billable_customer_id: "cust-both" },
    });
    expect((await client.close()).failed).toEqual([]);
    await exportWith(new ProtobufExporter(otlp()), (provider) => {
      provider
        .getTracer("otlp-pipeline-test")
        .startSpan("chat gpt-4o-mini", {
          kind: SpanKind.CLIENT,
          attributes: {
            "gen_ai.operation.name": "chat",
            "gen_ai.provider.name": "openai",
            "gen_ai.request.model": "gpt-4o-mini",
            "gen_ai.response.id": "chatcmpl-both-ways",
            "gen_ai.usage.input_tokens": 1000,
            "gen_ai.usage.output_tokens": 200,
            "enduser.id": "cust-both",
          },
        })
        .end();
    });
    const records = [...(await priceQueued(topic, org.organizationId, 2)).values()];
    expect(records.map((record) => record.transaction_id)).toEqual(["chatcmpl-both-ways", "chatcmpl-both-ways"]);
    // One is billed; the other is a duplicate or, its content differing (context, raw usage), a conflict.
    expect(records.filter((record) => record.status === "priced")).toHaveLength(1);
    expect(["duplicate", "conflict"]).toContain(records.find((record) => record.status !== "priced")?.status);
    const after = (await costs("")).totals;
    expect(BigInt(after.cost_nanos) - BigInt(before.cost_nanos)).toBe(270_000n);
    expect(after.transactions - before.transactions).toBe(1);
  });

  it("prices the Vercel AI SDK's spans (telemetry on, a mock model) once per model call", async () => {
    // gpt-4o-mini as the AI SDK counts it: 1000 input of which 400 cached, 50 output.
    // (1000 - 400) x 0.15 + 400 x 0.075 + 50 x 0.60 = 90 000 + 30 000 + 30 000 nano-USD
    const model = new MockLanguageModelV4({
      provider: "openai.chat",
      modelId: "gpt-4o-mini",
      doGenerate: {
        content: [{ type: "text", text: "Hello" }],
        finishReason: { unified: "stop", raw: "stop" },
        usage: {
          inputTokens: { total: 1000, noCache: 600, cacheRead: 400, cacheWrite: undefined },
          outputTokens: { total: 50, text: 50, reasoning: undefined },
        },
        response: { id: "chatcmpl-ai-sdk", modelId: "gpt-4o-mini", timestamp: new Date() },
        warnings: [],
      },
    });
    // An organization of its own, its settings made before its first request (the gateway reads them with
    // the key, cached for 10 s): the customer from an attribute of its own choosing.
    const aiOrg = await seedOrganization();
    await runAdmin(
      ["org", "otel", "set", aiOrg.organizationId, "--customer-attribute", "app.customer_id"],
      firestore(),
      () => {},
    );
    await exportWith(new ProtobufExporter(otlp(aiOrg.apiKey)), async (provider) => {
      provider.register();
      // enrichSpan: the AI SDK's hook for attributes of one's own on its spans (here, the customer).
      registerTelemetry(
        new OpenTelemetry({
          tracer: provider.getTracer("ai"),
          enrichSpan: () => ({ "app.customer_id": "cust-ai-sdk" }),
        }),
      );
      await generateText({ model, prompt: "Say hello" });
    });
    const records = [...(await priceQueued(topic, aiOrg.organizationId, 1)).values()];
    expect(records).toEqual([
      expect.objectContaining({
        status: "priced",
        provider: "openai",
        model: "gpt-4o-mini",
        transaction_id: "chatcmpl-ai-sdk",
        context: { billable_customer_id: "cust-ai-sdk" },
      }),
    ]);
    // The agent span repeats the call's usage as totals: not a call of its own, so one message, not two.
    const exports = gateway.logger.lines.filter(
      (line) => line.message.startsWith("POST /v1/traces") && line.fields?.organization_id === aiOrg.organizationId,
    );
    const sum = (field: string) => exports.reduce((total, line) => total + Number(line.fields?.[field]), 0);
    expect(exports.map((line) => line.fields?.status)).toEqual(exports.map(() => 200));
    expect([sum("events_queued"), sum("events_failed")]).toEqual([1, 0]);
    expect((await costs("", aiOrg.readKey)).totals).toMatchObject({ cost_nanos: "150000", transactions: 1 });
  });
});
