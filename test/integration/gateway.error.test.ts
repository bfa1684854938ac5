import type { Publisher } from "@usage-ingestion/gateway";
import { MAX_BODY_BYTES } from "@usage-ingestion/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bulk, validTransaction } from "../setup/fixtures.ts";
import { failingWhere, hangingPublisher, type JsonResponse, startTestGateway } from "../setup/gateway.ts";
import { pubsub, pullableTopic, seedOrganization } from "../setup/harness.ts";

/** Stand-in publisher that fails on purpose for the chosen transaction indexes, real for the rest. */
const failingFor = (indexes: number[], real: Publisher) =>
  failingWhere(real, (message) => indexes.includes(message.transaction_index));

const hanging = hangingPublisher();

describe("POST /usage/transactions: queueing failures", () => {
  let org: Awaited<ReturnType<typeof seedOrganization>>;
  let topic: Awaited<ReturnType<typeof pullableTopic>>;
  let real: Publisher;

  beforeAll(async () => {
    org = await seedOrganization();
    topic = await pullableTopic();
    const { pubSubPublisher } = await import("@usage-ingestion/gateway");
    real = pubSubPublisher(pubsub(), { topic: topic.topicName, timeoutMs: 10_000 });
  });

  it("answers 207 when some valid transactions fail to queue, naming the queueing failure", async () => {
    const gateway = await startTestGateway({ topicName: topic.topicName, publisher: failingFor([1], real) });
    try {
      const response = await gateway.post(bulk(validTransaction(), validTransaction(), validTransaction()), {
        "X-Api-Key": org.apiKey,
      });
      const body = await response.json();
      expect(response.status).toBe(207);
      expect(body).toMatchObject({ status: "partial_success", events_queued: 2, events_failed: 1 });
      expect(body.message).toBe("2 transaction(s) queued, 1 failed");
      expect(body.results[1]).toEqual({
        transaction_index: 1,
        message_id: null,
        error: expect.stringMatching(/queue/i),
      });
      expect(response.headers.get("idempotency-key")).toBe(body.results[0].message_id);
      const pulled = await topic.pull(2);
      expect(pulled.map((m) => m.id).sort()).toEqual([body.results[0].message_id, body.results[2].message_id].sort());
      // The error reaches the log, never the client.
      expect(JSON.stringify(body)).not.toContain("simulated");
    } finally {
      await gateway.close();
    }
  });

  it("answers 500 with every transaction listed when none could be queued", async () => {
    const gateway = await startTestGateway({ topicName: topic.topicName, publisher: failingFor([0, 1], real) });
    try {
      const response = await gateway.post(bulk(validTransaction(), validTransaction()), { "X-Api-Key": org.apiKey });
      const body = await response.json();
      expect(response.status).toBe(500);
      expect(body.error.code).toBe("internal_error");
      expect(body.events_failed).toBe(2);
      expect(body.results).toEqual([
        { transaction_index: 0, message_id: null, error: expect.any(String) },
        { transaction_index: 1, message_id: null, error: expect.any(String) },
      ]);
      expect(response.headers.get("idempotency-key")).toBeNull();
      expect(response.headers.get("x-request-id")).toBeTruthy();
    } finally {
      await gateway.close();
    }
  });

  it("answers 207 with nothing queued when some are invalid and every valid one failed to queue", async () => {
    const gateway = await startTestGateway({ topicName: topic.topicName, publisher: failingFor([0], real) });
    try {
      const response = await gateway.post(bulk(validTransaction(), validTransaction({ model: "" })), {
        "X-Api-Key": org.apiKey,
      });
      const body = await response.json();
      expect(response.status).toBe(207);
      expect(body).toMatchObject({ status: "partial_success", events_queued: 0, events_failed: 2 });
      expect(body.results[1].error).toContain("transactions.1.model");
      expect(response.headers.get("idempotency-key")).toBeNull();
    } finally {
      await gateway.close();
    }
  });

  it("bounds each publish in time: a hung Pub/Sub gives a 500, not a hung request", async () => {
    const gateway = await startTestGateway({
      topicName: topic.topicName,
      publisher: hanging,
      publishTimeoutMs: 300,
    });
    try {
      const started = Date.now();
      const response = await gateway.post(validTransaction(), { "X-Api-Key": org.apiKey });
      expect(response.status).toBe(500);
      expect((await response.json()).results[0].message_id).toBeNull();
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await gateway.close();
    }
  });
});

describe("POST /usage/transactions: bad requests", () => {
  let org: Awaited<ReturnType<typeof seedOrganization>>;
  let gateway: Awaited<ReturnType<typeof startTestGateway>>;

  beforeAll(async () => {
    org = await seedOrganization();
    const topic = await pullableTopic();
    gateway = await startTestGateway({ topicName: topic.topicName });
  });
  afterAll(() => gateway.close());

  const post = (body: unknown, headers: Record<string, string> = {}) =>
    gateway.post(body, { "X-Api-Key": org.apiKey, ...headers });

  it("answers invalid_json without details for a body that is not JSON", async () => {
    const response = await post('{"provider": "openai",');
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.error.code).toBe("invalid_json");
    expect(body.error.details).toBeUndefined();
    expect(response.headers.get("x-request-id")).toBeTruthy();
  });

  it("answers invalid_json for an empty body", async () => {
    const response = await post("");
    expect(response.status).toBe(400);
    expect((await response.json()).error.code).toBe("invalid_json");
  });

  it("answers invalid_json naming the header when the content type is not JSON", async () => {
    const response = await post(JSON.stringify(validTransaction()), { "content-type": "text/plain" });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.error.code).toBe("invalid_json");
    expect(body.error.message).toContain("Content-Type");
  });

  it.each([["null"], ["[]"], ["42"], ['"text"']])(
    "answers validation_error at body for the JSON value %s",
    async (raw) => {
      const response = await post(raw);
      expect(response.status).toBe(400);
      const body = await response.json();
      expect(body.error.code).toBe("validation_error");
      expect(body.error.details).toEqual([{ field: "body", code: "invalid_type", message: expect.any(String) }]);
    },
  );

  it("reports every field error of a single invalid transaction", async () => {
    const response = await post({
      provider: "acme",
      model: "m",
      usage: [{ type: "tokens", metrics: { input_tokens: 0, output_tokens: 1.5, total_tokens: 2 } }],
      context: {},
    });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.error.code).toBe("validation_error");
    expect(body.error.details.map((d: { field: string; code: string }) => [d.field, d.code])).toEqual([
      ["provider", "invalid_value"],
      ["usage.0.metrics.input_tokens", "too_small"],
      ["usage.0.metrics.output_tokens", "invalid_type"],
      ["context.billable_customer_id", "required"],
    ]);
  });

  it("answers 400 with prefixed paths when every transaction of a bulk is invalid", async () => {
    const response = await post(bulk(validTransaction({ provider: "nope" }), validTransaction({ usage: [] })));
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.error.details.map((d: { field: string; code: string }) => [d.field, d.code])).toEqual([
      ["transactions.0.provider", "invalid_value"],
      ["transactions.1.usage", "too_small"],
    ]);
  });

  it.each([
    [{ transactions: {} }, "invalid_type"],
    [{ transactions: [] }, "too_small"],
    [{ transactions: Array.from({ length: 1001 }, () => validTransaction()) }, "too_large"],
  ])("judges the bulk envelope before its transactions (%#)", async (request, code) => {
    const response = await post(request);
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.error.details).toEqual([{ field: "transactions", code, message: expect.any(String) }]);
  });

  it("accepts a bulk of exactly 1000 transactions", async () => {
    const response = await post({ transactions: Array.from({ length: 1000 }, () => validTransaction()) });
    expect(response.status).toBe(202);
    expect((await response.json()).events_queued).toBe(1000);
  });

  it("answers 413 too_large at body past 5 MiB", async () => {
    const response = await post(JSON.stringify({ ...validTransaction(), pad: "x".repeat(MAX_BODY_BYTES) }));
    expect(response.status).toBe(413);
    const body = await response.json();
    expect(body.error.code).toBe("validation_error");
    expect(body.error.details).toEqual([{ field: "body", code: "too_large", message: expect.any(String) }]);
  });

  it("refuses a transaction over 256 KiB, naming the field that makes it large", async () => {
    const big = validTransaction({ provider_usage_raw: { blob: "x".repeat(300 * 1024) } });
    const single = await post(big);
    expect(single.status).toBe(400);
    expect((await single.json()).error.details).toEqual([
      { field: "provider_usage_raw", code: "too_large", message: expect.any(String) },
    ]);

    const inBulk = await post(bulk(validTransaction(), big));
    expect(inBulk.status).toBe(207);
    expect((await inBulk.json()).results[1].error).toContain("transactions.1.provider_usage_raw");
  });

  it("answers 405 with Allow: POST for another method, in the error envelope", async () => {
    const response: JsonResponse = await fetch(`${gateway.baseUrl}/usage/transactions`, { method: "GET" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
    expect((await response.json()).error).toMatchObject({ code: expect.any(String), message: expect.any(String) });
  });

  it("answers 404 for an unknown path, in the error envelope", async () => {
    const response: JsonResponse = await fetch(`${gateway.baseUrl}/usage/other`, { method: "POST" });
    expect(response.status).toBe(404);
    expect(response.headers.get("x-request-id")).toBeTruthy();
    expect((await response.json()).error).toMatchObject({ code: expect.any(String), message: expect.any(String) });
  });
});
