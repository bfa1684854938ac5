import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { RpcStatus } from "../otlp/decode.ts";
import { PairingUnavailableError } from "../otlp/firestore-pairing.ts";
import { startTestGateway, type TestGateway } from "../testing/gateway-harness.ts";
import { chatSpan, jsonExport } from "../testing/otlp-exports.ts";

let gateway: TestGateway;
let key: Record<string, string>;
beforeAll(async () => {
  gateway = await startTestGateway();
  key = { "x-api-key": gateway.keys.organization().ingestKey };
});
afterAll(() => gateway.close());
beforeEach(() => gateway.publisher.failWhere(() => false));

const exportTraces = (body: string | Uint8Array<ArrayBuffer>, headers: Record<string, string> = {}) =>
  gateway.request("/v1/traces", {
    method: "POST",
    headers: { "content-type": "application/json", ...key, ...headers },
    body,
  });

describe("POST /v1/traces: refused exports, in OTLP's own Status", () => {
  it("answers 415 for a Content-Type that is neither protobuf nor JSON", async () => {
    const response = await exportTraces("{}", { "content-type": "text/plain" });
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({
      code: 3,
      message: "The Content-Type must be application/x-protobuf or application/json, not text/plain.",
    });
  });

  it("answers 400 for a body that does not decompress as gzip, and 415 for another encoding", async () => {
    const calls = gateway.publisher.calls;
    const corrupt = await exportTraces("{}", { "content-encoding": "gzip" });
    expect(corrupt.status).toBe(400);
    expect(await corrupt.json()).toEqual({ code: 3, message: "The request body does not decompress as gzip." });
    for (const encoding of ["deflate", "br", "zstd"]) {
      const refused = await exportTraces("{}", { "content-encoding": encoding });
      expect(refused.status).toBe(415);
      expect((await refused.json()).message).toBe(
        `The Content-Encoding ${encoding} is not supported; use gzip or none.`,
      );
    }
    expect(gateway.publisher.calls).toBe(calls);
  });

  it("answers 400 for a body that does not decode, in the request's own encoding", async () => {
    const json = await exportTraces("{nope");
    expect(json.status).toBe(400);
    expect((await json.json()).message).toMatch(/^The body is not an OTLP ExportTraceServiceRequest: /);
    const binary = await exportTraces(new Uint8Array([0xff, 0xff, 0xff]), { "content-type": "application/x-protobuf" });
    expect(binary.status).toBe(400);
    expect(binary.headers.get("content-type")).toBe("application/x-protobuf");
    const status = RpcStatus.toObject(RpcStatus.decode(new Uint8Array(await binary.arrayBuffer())));
    expect(status.code).toBe(3);
  });

  it("answers 413 for more than 1000 model-call spans, before counting them against the rate limits", async () => {
    const spans = Array.from({ length: 1001 }, (_, i) => chatSpan(`many-${i}`));
    const response = await exportTraces(JSON.stringify(jsonExport(spans)));
    expect(response.status).toBe(413);
    expect((await response.json()).message).toBe(
      "The request holds 1001 model-call spans; at most 1000 are taken at once.",
    );
    expect(response.headers.get("ratelimit-limit")).toBeNull();
  });

  it("answers 413 for a body over 5 MiB", async () => {
    const response = await exportTraces(`{"resourceSpans":[${"{},".repeat(2_000_000)}{}]}`);
    expect(response.status).toBe(413);
    expect((await response.json()).code).toBe(3);
  });

  it("answers 405 with Allow for another method", async () => {
    const response = await gateway.request("/v1/traces", { headers: key });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
  });
});

describe("POST /v1/traces: Pub/Sub failing", () => {
  it("answers 503 with Retry-After, so exporters resend the whole export", async () => {
    gateway.publisher.failWhere(() => true);
    const response = await exportTraces(JSON.stringify(jsonExport([chatSpan("down-1"), chatSpan("down-2")])));
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("5");
    expect(await response.json()).toEqual({
      code: 14,
      message: "2 of 2 model-call span(s) could not be queued; retry the export.",
    });
  });

  it("answers 503 when only some could not be queued, counting every model-call span", async () => {
    gateway.publisher.failWhere((message) => message.transaction_index === 1);
    const spans = [chatSpan("part-1"), chatSpan("part-2"), chatSpan("part-3", { "gen_ai.request.model": "" })];
    const response = await exportTraces(JSON.stringify(jsonExport(spans)));
    expect(response.status).toBe(503);
    expect((await response.json()).message).toBe("1 of 3 model-call span(s) could not be queued; retry the export.");
  });
});

describe("POST /v1/traces: the span store failing", () => {
  it("answers 503 with Retry-After and queues nothing, rather than bill a call twice", async () => {
    const failing = await startTestGateway({
      pairing: {
        decide: () => Promise.reject(new PairingUnavailableError("the span store did not answer within 5000 ms")),
      },
    });
    try {
      const response = await failing.request("/v1/traces", {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": failing.keys.organization().ingestKey },
        body: JSON.stringify(jsonExport([chatSpan("paired-1")])),
      });
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("5");
      expect(await response.json()).toEqual({ code: 14, message: "The export could not be taken now; retry it." });
      expect(failing.publisher.published).toHaveLength(0);
      expect(failing.logger.lines.some((line) => /one call once cannot be decided/.test(line.message))).toBe(true);
    } finally {
      await failing.close();
    }
  });
});
