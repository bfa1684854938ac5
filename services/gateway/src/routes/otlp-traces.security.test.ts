import { hashApiKey } from "@usage-ingestion/organizations";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authCases } from "../testing/auth-cases.ts";
import { startTestGateway, type TestGateway } from "../testing/gateway-harness.ts";
import { chatSpan, jsonExport } from "../testing/otlp-exports.ts";

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway({
    rateLimits: {
      organization: { ingestPerSecond: 1000, ingestBurst: 1000, reportsPerMinute: 60 },
      // Room for this file's exports, not for a burst of 50 spans.
      key: { ingestPerSecond: 5, ingestBurst: 20, reportsPerMinute: 60 },
      unknownKeysPerMinute: 1000,
    },
  });
});
afterAll(() => gateway.close());

const exportTraces = (spans: unknown[], headers: Record<string, string>) =>
  gateway.request("/v1/traces", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(jsonExport(spans)),
  });

describe("POST /v1/traces: who may send", () => {
  it.each(authCases("ingest"))("answers 401 UNAUTHENTICATED for $name, and queues nothing", async (refused) => {
    const before = gateway.publisher.published.length;
    const response = await exportTraces([chatSpan("auth")], refused.headers(gateway.keys));
    expect(response.status).toBe(401);
    const status = await response.json();
    expect(status).toEqual({ code: 16, message: expect.stringMatching(refused.message) });
    expect(gateway.publisher.published.length).toBe(before);
  });

  it("answers 503 with Retry-After, not 401, while the key store cannot answer", async () => {
    const { ingestKey } = gateway.keys.organization();
    gateway.keys.failWith(new Error("key store down"));
    try {
      const response = await exportTraces([chatSpan("store-down")], { "x-api-key": ingestKey });
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("5");
      expect((await response.json()).code).toBe(14);
    } finally {
      gateway.keys.failWith(undefined);
    }
  });
});

describe("POST /v1/traces: one organization's data and its limits", () => {
  it("queues under the key's organization, whatever the spans' attributes say", async () => {
    const mine = gateway.keys.organization();
    const other = gateway.keys.organization();
    const span = chatSpan("claims-other", { organization_id: other.organizationId, "enduser.id": "u-1" });
    const response = await exportTraces([span], { "x-api-key": mine.ingestKey });
    expect(response.status).toBe(200);
    const requestId = response.headers.get("x-request-id");
    const [published] = gateway.publisher.published.filter((each) => each.message.request_id === requestId);
    expect(published?.message.organization_id).toBe(mine.organizationId);
    expect(published?.message.transaction.context).toEqual({ billable_customer_id: "u-1" });
  });

  it("counts the spans against the key's rate limit: a burst past it is 429 RESOURCE_EXHAUSTED, nothing queued", async () => {
    const { ingestKey } = gateway.keys.organization();
    const before = gateway.publisher.published.length;
    const spans = Array.from({ length: 50 }, (_, i) => chatSpan(`burst-${i}`));
    const response = await exportTraces(spans, { "x-api-key": ingestKey });
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await response.json()).code).toBe(8);
    expect(gateway.publisher.published.length).toBe(before);
  });

  it("never writes the key or its hash to the log", async () => {
    const { ingestKey } = gateway.keys.organization();
    await (await exportTraces([chatSpan("quiet")], { "x-api-key": ingestKey })).arrayBuffer();
    await (await exportTraces([chatSpan("quiet")], { "x-api-key": `${ingestKey}x` })).arrayBuffer();
    const logged = gateway.logger.text();
    expect(logged).not.toContain(ingestKey);
    expect(logged).not.toContain(hashApiKey(ingestKey));
  });
});

describe("POST /v1/traces: hostile exports", () => {
  it("answers 400, never 500, for JSON that is no export: an array, nesting, wrong types", async () => {
    const { ingestKey } = gateway.keys.organization();
    for (const body of ["[]", '{"resourceSpans":{"a":1}}', `{"resourceSpans":${"[".repeat(200)}${"]".repeat(200)}}`]) {
      const response = await gateway.request("/v1/traces", {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": ingestKey },
        body,
      });
      expect(response.status, body.slice(0, 40)).toBe(400);
      expect((await response.json()).code).toBe(3);
    }
  });

  it("rejects a span whose identifiers are too long as partial_success, and takes the others", async () => {
    const { ingestKey } = gateway.keys.organization();
    const spans = [chatSpan("fine"), chatSpan("too-long", { "enduser.id": "u".repeat(1000) })];
    const response = await exportTraces(spans, { "x-api-key": ingestKey });
    expect(response.status).toBe(200);
    const { partialSuccess } = await response.json();
    expect(partialSuccess.rejectedSpans).toBe("1");
    expect(partialSuccess.errorMessage).toContain("context.billable_customer_id (too_large)");
  });
});
