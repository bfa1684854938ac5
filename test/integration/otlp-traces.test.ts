import { gzipSync } from "node:zlib";
import { SpanKind } from "@opentelemetry/api";
import { OTLPTraceExporter as ProtobufExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import type { RateLimitConfig } from "@usage-ingestion/gateway";
import { ExportTraceServiceResponse, RpcStatus } from "@usage-ingestion/gateway";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway } from "../setup/gateway.ts";
import { pullableTopic, seedOrganization } from "../setup/harness.ts";

let org: Awaited<ReturnType<typeof seedOrganization>>;
let topic: Awaited<ReturnType<typeof pullableTopic>>;
let gateway: Awaited<ReturnType<typeof startTestGateway>>;

// Room for this file's requests but not for a burst of 50 spans.
const LIMITS: RateLimitConfig = {
  organization: { ingestPerSecond: 1000, ingestBurst: 1000, reportsPerMinute: 60 },
  key: { ingestPerSecond: 5, ingestBurst: 20, reportsPerMinute: 60 },
  unknownKeysPerMinute: 1000,
};

beforeAll(async () => {
  org = await seedOrganization();
  topic = await pullableTopic();
  gateway = await startTestGateway({ topicName: topic.topicName, rateLimits: LIMITS });
});
afterAll(() => gateway?.close());

const TRACE = "5b8efff798038103d269b633813fc60c";
const attribute = (key: string, value: string | number) => ({
  key,
  value: typeof value === "string" ? { stringValue: value } : { intValue: String(value) },
});
/** A span of OTLP/JSON with these attributes. */
const jsonSpan = (spanId: string, attributes: Record<string, string | number>) => ({
  traceId: TRACE,
  spanId,
  name: "span",
  kind: 3,
  startTimeUnixNano: "1795551367162000000",
  endTimeUnixNano: "1795551367262000000",
  attributes: Object.entries(attributes).map(([key, value]) => attribute(key, value)),
});
const jsonRequest = (spans: unknown[]) => ({
  resourceSpans: [
    {
      resource: { attributes: [attribute("service.name", "checkout")] },
      scopeSpans: [{ scope: { name: "test" }, spans }],
    },
  ],
});
const chatAttributes = (responseId: string) => ({
  "gen_ai.operation.name": "chat",
  "gen_ai.provider.name": "openai",
  "gen_ai.request.model": "gpt-4o-mini",
  "gen_ai.response.id": responseId,
  "gen_ai.usage.input_tokens": 12,
  "gen_ai.usage.output_tokens": 3,
});

const post = (body: BodyInit, headers: Record<string, string>) =>
  fetch(`${gateway.baseUrl}/v1/traces`, { method: "POST", body, headers });
const statusOf = async (response: Response) =>
  RpcStatus.toObject(RpcStatus.decode(new Uint8Array(await response.arrayBuffer()))) as {
    code: number;
    message: string;
  };

describe("POST /v1/traces answers as OTLP/HTTP requires", () => {
  it("401 with a google.rpc.Status in the request's encoding, before reading the body", async () => {
    const binary = await post(new Uint8Array([1, 2, 3]), { "content-type": "application/x-protobuf" });
    expect(binary.status).toBe(401);
    expect(binary.headers.get("content-type")).toBe("application/x-protobuf");
    expect(binary.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(await statusOf(binary)).toEqual({ code: 16, message: "The X-Api-Key header is required." });

    const json = await post("{}", { "content-type": "application/json", "x-api-key": "usk_unknown" });
    expect(json.status).toBe(401);
    expect(await json.json()).toEqual({ code: 16, message: "The API key is invalid or missing." });

    const readKey = await post("{}", { "content-type": "application/json", "x-api-key": org.readKey });
    expect(readKey.status).toBe(401);
  });

  it("415 for another content type, 400 for what does not decode, 413 past 5 MiB inflated", async () => {
    const key = { "x-api-key": org.apiKey };
    const text = await post("hello", { ...key, "content-type": "text/plain" });
    expect(text.status).toBe(415);
    expect((await text.json()).message).toContain("application/x-protobuf or application/json");

    const garbage = await post(new Uint8Array([0x0a, 0xff, 0xff]), {
      ...key,
      "content-type": "application/x-protobuf",
    });
    expect(garbage.status).toBe(400);
    expect((await statusOf(garbage)).message).toContain("not an OTLP ExportTraceServiceRequest");

    const wrongType = await post(JSON.stringify({ resourceSpans: 5 }), { ...key, "content-type": "application/json" });
    expect(wrongType.status).toBe(400);
    expect((await wrongType.json()).message).toContain("resourceSpans: array expected");

    // 6 MiB of zeros, a few kilobytes gzipped: the limit is on what the body inflates to.
    const bomb = gzipSync(Buffer.alloc(6 * 1024 * 1024));
    const large = await post(bomb, { ...key, "content-type": "application/x-protobuf", "content-encoding": "gzip" });
    expect(large.status).toBe(413);
    expect((await statusOf(large)).message).toContain("larger than 5242880 bytes");

    const get = await fetch(`${gateway.baseUrl}/v1/traces`);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
  });

  it("names each model-call span of any dialect that it cannot read, and why", async () => {
    const llm = { "openinference.span.kind": "LLM", "llm.model_name": "gpt-4o-mini", "llm.provider": "openai" };
    const response = await post(
      JSON.stringify(
        jsonRequest([
          jsonSpan("00000000000000b1", llm),
          jsonSpan("00000000000000b2", { ...llm, "llm.token_count.prompt": "300", "llm.token_count.completion": 5 }),
          jsonSpan("00000000000000b3", {
            ...chatAttributes("msg-cache-above-input"),
            "gen_ai.provider.name": "anthropic",
            "gen_ai.usage.cache_read.input_tokens": 8000,
          }),
          jsonSpan("00000000000000b4", { "openinference.span.kind": "CHAIN", "llm.token_count.prompt": 9 }),
        ]),
      ),
      { "content-type": "application/json", "x-api-key": org.apiKey },
    );
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.partialSuccess.rejectedSpans).toBe("3");
    const message: string = body.partialSuccess.errorMessage;
    expect(message).toContain(`span ${TRACE}/00000000000000b1: no token usage (gen_ai.usage.input_tokens,`);
    expect(message).toContain("llm.token_count.prompt");
    expect(message).toContain(`span ${TRACE}/00000000000000b2: validation failed: usage.0.metrics.input_tokens`);
    expect(message).toContain(
      `span ${TRACE}/00000000000000b3: gen_ai.usage.input_tokens (12) is less than its cache reads and writes (8000)`,
    );
    expect(message).not.toContain("00000000000000b4");
    expect(await topic.pull(1, 2_000)).toEqual([]);
  });

  it("takes the model calls, ignores other spans and rejects what cannot be a transaction, saying why", async () => {
    const response = await post(
      JSON.stringify(
        jsonRequest([
          jsonSpan("00000000000000a1", chatAttributes("chatcmpl-partial-1")),
          jsonSpan("00000000000000a2", { "http.request.method": "GET" }),
          jsonSpan("00000000000000a3", { ...chatAttributes("chatcmpl-partial-3"), "gen_ai.usage.output_tokens": 0 }),
          jsonSpan("00000000000000a4", { "gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-4o" }),
        ]),
      ),
      { "content-type": "application/json", "x-api-key": org.apiKey },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("ratelimit-limit")).toBeTruthy();
    const body = await response.json();
    expect(body.partialSuccess.rejectedSpans).toBe("2");
    expect(body.partialSuccess.errorMessage).toContain(
      `span ${TRACE}/00000000000000a3: validation failed: usage.0.metrics.output_tokens (too_small)`,
    );
    expect(body.partialSuccess.errorMessage).toContain(`span ${TRACE}/00000000000000a4: no token usage`);

    const [message, ...more] = await topic.pull(1, 5_000);
    expect(more).toEqual([]);
    expect(message?.data).toMatchObject({
      organization_id: org.organizationId,
      transaction: {
        provider: "openai",
        model: "gpt-4o-mini",
        transaction_id: "chatcmpl-partial-1",
        context: { billable_customer_id: "checkout" },
        usage: [{ type: "tokens", metrics: { input_tokens: 12, output_tokens: 3, total_tokens: 15 } }],
      },
    });
  });

  it("answers an empty ExportTraceServiceResponse in protobuf when every span was taken", async () => {
    const empty = await post(new Uint8Array(0), { "content-type": "application/x-protobuf", "x-api-key": org.apiKey });
    expect(empty.status).toBe(200);
    expect(empty.headers.get("content-type")).toBe("application/x-protobuf");
    const decoded = ExportTraceServiceResponse.decode(new Uint8Array(await empty.arrayBuffer()));
    expect(ExportTraceServiceResponse.toObject(decoded)).toEqual({});
  });

  it("counts spans turned transactions against the rate limits: 429 with Retry-After, nothing queued", async () => {
    const spans = Array.from({ length: 50 }, (_, i) =>
      jsonSpan(`00000000000001${String(i).padStart(2, "0")}`, chatAttributes(`chatcmpl-burst-${i}`)),
    );
    const response = await post(JSON.stringify(jsonRequest(spans)), {
      "content-type": "application/json",
      "x-api-key": org.apiKey,
    });
    expect(response.status).toBe(429);
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
    const status = await response.json();
    expect(status.code).toBe(8);
    expect(status.message).toContain("transactions a second");
    expect(await topic.pull(1, 2_000)).toEqual([]);
  });

  it("is where OTEL_EXPORTER_OTLP_TRACES_ENDPOINT and OTEL_EXPORTER_OTLP_HEADERS point an exporter", async () => {
    const saved = { ...process.env };
    process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT = `${gateway.baseUrl}/v1/traces`;
    process.env.OTEL_EXPORTER_OTLP_HEADERS = `X-Api-Key=${org.apiKey}`;
    try {
      const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new ProtobufExporter())] });
      provider
        .getTracer("env")
        .startSpan("chat gpt-4o-mini", { kind: SpanKind.CLIENT, attributes: chatAttributes("chatcmpl-env") })
        .end();
      await provider.forceFlush();
      await provider.shutdown();
    } finally {
      process.env = saved;
    }
    const [message] = await topic.pull(1, 10_000);
    expect(message?.data).toMatchObject({ transaction: { transaction_id: "chatcmpl-env" } });
  });
});
