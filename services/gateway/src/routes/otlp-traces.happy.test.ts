import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ExportTraceServiceResponse } from "../otlp/decode.ts";
import type { FakeOrganization } from "../testing/fake-key-store.ts";
import { startTestGateway, type TestGateway } from "../testing/gateway-harness.ts";
import { chatSpan, jsonExport, jsonSpan, protobufExport } from "../testing/otlp-exports.ts";

const NOW = new Date("2026-05-01T10:00:00.000Z");

let gateway: TestGateway;
let org: FakeOrganization;
beforeAll(async () => {
  gateway = await startTestGateway({ now: () => NOW });
  org = gateway.keys.organization();
});
afterAll(() => gateway.close());

const exportTraces = (body: string | Uint8Array<ArrayBuffer>, headers: Record<string, string> = {}) =>
  gateway.request("/v1/traces", {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": org.ingestKey, ...headers },
    body,
  });
const publishedFor = (response: Response) =>
  gateway.publisher.published.filter((each) => each.message.request_id === response.headers.get("x-request-id"));

describe("POST /v1/traces: accepted", () => {
  it("queues each model-call span as a transaction and answers 200 with an empty JSON response", async () => {
    const response = await exportTraces(JSON.stringify(jsonExport([chatSpan("resp-1"), chatSpan("resp-2")])));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await response.text()).toBe("{}");
    const published = publishedFor(response);
    expect(published.map((each) => each.message.transaction.transaction_id)).toEqual(["resp-1", "resp-2"]);
    expect(published[0]?.message).toMatchObject({
      organization_id: org.organizationId,
      transaction_index: 0,
      received_at: NOW.toISOString(),
      transaction: {
        provider: "openai",
        model: "gpt-4o-mini",
        context: { billable_customer_id: "checkout" },
        usage: [{ type: "tokens", metrics: { input_tokens: 12, output_tokens: 3, total_tokens: 15 } }],
      },
    });
  });

  it("answers a protobuf export in protobuf, with the rate limits' headers", async () => {
    const response = await exportTraces(protobufExport([chatSpan("resp-3")]), {
      "content-type": "application/x-protobuf",
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/x-protobuf");
    const answer = ExportTraceServiceResponse.decode(new Uint8Array(await response.arrayBuffer()));
    expect(ExportTraceServiceResponse.toObject(answer)).toEqual({});
    expect(response.headers.get("ratelimit-limit")).toMatch(/^\d+$/);
    expect(publishedFor(response)).toHaveLength(1);
  });

  it("takes a gzip export, and forwards the request's trace with each message", async () => {
    const traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    const body = new Uint8Array(gzipSync(JSON.stringify(jsonExport([chatSpan("resp-4")]))));
    const response = await exportTraces(body, { "content-encoding": "gzip", traceparent });
    expect(response.status).toBe(200);
    expect(publishedFor(response)[0]?.attributes).toEqual({ traceparent });
  });

  it("answers 200 and queues nothing, without publishing, for an export without model calls", async () => {
    const calls = gateway.publisher.calls;
    const response = await exportTraces(JSON.stringify(jsonExport([jsonSpan({ "http.request.method": "GET" })])));
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("{}");
    expect(gateway.publisher.calls).toBe(calls);
  });

  it("answers partial_success naming each span it could not take, and queues the rest", async () => {
    const noUsage = jsonSpan({
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "openai",
      "gen_ai.request.model": "gpt-4o",
    });
    const tooLong = chatSpan("resp-6", { "gen_ai.request.model": "m".repeat(300) });
    const response = await exportTraces(JSON.stringify(jsonExport([chatSpan("resp-5"), noUsage, tooLong])));
    expect(response.status).toBe(200);
    const { partialSuccess } = await response.json();
    expect(partialSuccess.rejectedSpans).toBe("2");
    expect(partialSuccess.errorMessage).toMatch(/^2 model-call span\(s\) rejected: span [0-9a-f]{32}\/[0-9a-f]{16}: /);
    expect(partialSuccess.errorMessage).toContain(`/${noUsage.spanId}: no token usage`);
    expect(partialSuccess.errorMessage).toContain(
      `/${tooLong.spanId}: validation failed: model (too_large): model must be at most 256 bytes in UTF-8`,
    );
    const published = publishedFor(response);
    expect(published.map((each) => each.message.transaction_index)).toEqual([0]);
  });

  it("lists five reasons and counts the rest", async () => {
    const spans = Array.from({ length: 7 }, (_, i) =>
      chatSpan(`bad-${i}`, { "gen_ai.request.model": "m".repeat(300) }),
    );
    const response = await exportTraces(JSON.stringify(jsonExport(spans)));
    const { partialSuccess } = await response.json();
    expect(partialSuccess.rejectedSpans).toBe("7");
    expect(partialSuccess.errorMessage.match(/span [0-9a-f]{32}/g)).toHaveLength(5);
    expect(partialSuccess.errorMessage).toMatch(/; and 2 more$/);
  });

  it("logs the spans queued and failed in the request's line", async () => {
    const response = await exportTraces(
      JSON.stringify(jsonExport([chatSpan("resp-7"), chatSpan("resp-8", { "gen_ai.request.model": "" })])),
    );
    const requestId = response.headers.get("x-request-id");
    await response.arrayBuffer();
    await expect
      .poll(() => gateway.logger.lines.find((line) => line.fields?.request_id === requestId))
      .toMatchObject({
        message: "POST /v1/traces 200",
        fields: { events_queued: 1, events_failed: 1 },
      });
  });
});
