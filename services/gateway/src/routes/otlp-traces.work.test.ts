import { afterEach, describe, expect, it } from "vitest";
import { MAX_ATTRIBUTES_PER_SPAN } from "../otlp/decode.ts";
import { startTestGateway, type TestGateway } from "../testing/gateway-harness.ts";
import { chatSpan, jsonExport, jsonSpan } from "../testing/otlp-exports.ts";

// POST /v1/traces charged by its work, not only by its model calls: attributes per span have the SDKs'
// ceiling, checked before the export is built, and the spans and attributes read count against the rate.

let gateway: TestGateway | undefined;
afterEach(async () => {
  await gateway?.close();
  gateway = undefined;
});

const LIMITS = {
  organization: { ingestPerSecond: 50, ingestBurst: 0, reportsPerMinute: 60 },
  key: { ingestPerSecond: 50, ingestBurst: 0, reportsPerMinute: 60 },
  unknownKeysPerMinute: 60,
};

const post = (body: unknown, key: string) =>
  (gateway as TestGateway).request("/v1/traces", {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key },
    body: JSON.stringify(body),
  });

const attributes = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`attr.${i}`, i]));

describe("POST /v1/traces: bounds on work", () => {
  it("refuses one span of 100,000 attributes (about 4.5 MB, which counted as one transaction) with OTLP's 400", async () => {
    gateway = await startTestGateway();
    const org = gateway.keys.organization();
    const response = await post(jsonExport([chatSpan("heavy", attributes(100_000))]), org.ingestKey);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      code: 3,
      message: expect.stringContaining(`more than ${MAX_ATTRIBUTES_PER_SPAN} attributes`),
    });
    expect(gateway.publisher.published).toHaveLength(0);
  });

  it("charges the spans and attributes it reads: 100 spans of 100 attributes and no model call reach 50 a second", async () => {
    gateway = await startTestGateway({ rateLimits: LIMITS });
    const heavy = gateway.keys.organization();
    // No span is a model call: 10,000 attributes and 100 spans (79 transactions' worth), about 400 KB (100).
    const spans = Array.from({ length: 100 }, () => jsonSpan(attributes(100)));
    const response = await post(jsonExport(spans), heavy.ingestKey);
    expect(response.status).toBe(429);
    // A light tenant beside it is served.
    const light = gateway.keys.organization();
    expect((await post(jsonExport([chatSpan("light")]), light.ingestKey)).status).toBe(200);
  });
});
