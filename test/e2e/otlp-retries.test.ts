import { SpanKind } from "@opentelemetry/api";
import { OTLPTraceExporter as ProtobufExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { pubSubPublisher } from "@usage-ingestion/gateway";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failingFirst, priceQueued } from "../setup/client.ts";
import { startTestGateway } from "../setup/gateway.ts";
import { pubsub, pullableTopic, seedOrganization } from "../setup/harness.ts";

let org: Awaited<ReturnType<typeof seedOrganization>>;
let topic: Awaited<ReturnType<typeof pullableTopic>>;
let gateway: Awaited<ReturnType<typeof startTestGateway>>;

beforeAll(async () => {
  org = await seedOrganization();
  topic = await pullableTopic();
  // Pub/Sub refuses the first message it is given, then takes everything.
  const real = pubSubPublisher(pubsub(), { topic: topic.topicName, timeoutMs: 10_000 });
  gateway = await startTestGateway({ topicName: topic.topicName, publisher: failingFirst(real, 1) });
});
afterAll(() => gateway?.close());

describe("an export that was partly queued", () => {
  it("is answered 503, retried whole by the exporter, and each call billed once", { timeout: 60_000 }, async () => {
    const provider = new NodeTracerProvider({
      spanProcessors: [
        new BatchSpanProcessor(
          new ProtobufExporter({ url: `${gateway.baseUrl}/v1/traces`, headers: { "X-Api-Key": org.apiKey } }),
        ),
      ],
    });
    const tracer = provider.getTracer("otlp-retries-test");
    for (const id of ["chatcmpl-retry-1", "chatcmpl-retry-2"]) {
      tracer
        .startSpan("chat gpt-4o-mini", {
          kind: SpanKind.CLIENT,
          attributes: {
            "gen_ai.operation.name": "chat",
            "gen_ai.provider.name": "openai",
            "gen_ai.request.model": "gpt-4o-mini",
            "gen_ai.response.id": id,
            // gpt-4o-mini at 0.15 input and 0.60 output per million tokens
            // (https://platform.openai.com/docs/pricing): 1000 x 0.15 + 100 x 0.60 = 210 000 nano-USD
            "gen_ai.usage.input_tokens": 1000,
            "gen_ai.usage.output_tokens": 100,
            "enduser.id": "cust-retry",
          },
        })
        .end();
    }
    await provider.forceFlush();
    await provider.shutdown();

    const exports = gateway.logger.lines.filter((line) => line.message.startsWith("POST /v1/traces"));
    expect(exports.map((line) => line.fields?.status)).toEqual([503, 200]);

    // The first attempt queued one of the two (Pub/Sub refused the other), the resend both: three
    // messages, each call priced once, the one queued twice stored as a duplicate.
    const records = [...(await priceQueued(topic, org.organizationId, 3)).values()];
    const statuses = (id: string) =>
      records.filter((record) => record.transaction_id === id).map((record) => record.status);
    const [first, second] = [statuses("chatcmpl-retry-1"), statuses("chatcmpl-retry-2")];
    expect([first, second].map((list) => list.filter((status) => status === "priced"))).toEqual([
      ["priced"],
      ["priced"],
    ]);
    expect([...first, ...second].sort()).toEqual(["duplicate", "priced", "priced"]);
    const response = await fetch(`${gateway.baseUrl}/usage/costs`, { headers: { "x-api-key": org.readKey } });
    expect((await response.json()).totals).toMatchObject({ cost_nanos: "420000", transactions: 2 });
  });
});
