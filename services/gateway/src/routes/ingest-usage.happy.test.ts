import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeOrganization } from "../testing/fake-key-store.ts";
import { startTestGateway, type TestGateway } from "../testing/gateway-harness.ts";
import { validTransaction } from "../testing/transactions.ts";

const NOW = new Date("2026-05-01T10:00:00.000Z");
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let gateway: TestGateway;
let org: FakeOrganization;
let key: Record<string, string>;
beforeAll(async () => {
  gateway = await startTestGateway({ now: () => NOW });
  org = gateway.keys.organization();
  key = { "x-api-key": org.ingestKey };
});
afterAll(() => gateway.close());

/** The messages published for the request that answered with `requestId`. */
const publishedFor = (requestId: string | null) =>
  gateway.publisher.published.filter((each) => each.message.request_id === requestId);

describe("POST /usage/transactions: accepted", () => {
  it("queues a single transaction: 202, its message id, the Idempotency-Key and the request id", async () => {
    const response = await gateway.postUsage(validTransaction(), key);
    expect(response.status).toBe(202);
    const requestId = response.headers.get("x-request-id");
    expect(requestId).toMatch(UUID);
    const [published] = publishedFor(requestId);
    expect(await response.json()).toEqual({
      status: "queued",
      events_queued: 1,
      message: "1 transaction(s) queued for processing",
      results: [{ transaction_index: 0, message_id: published?.id }],
    });
    expect(response.headers.get("idempotency-key")).toBe(published?.id);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
  });

  it("publishes the envelope the worker parses: the key's organization, the request, the receive time", async () => {
    const response = await gateway.postUsage(validTransaction({ model: "gpt-4o-mini" }), key);
    const [published] = publishedFor(response.headers.get("x-request-id"));
    expect(published?.message).toEqual({
      schema_version: 1,
      organization_id: org.organizationId,
      request_id: response.headers.get("x-request-id"),
      transaction_index: 0,
      received_at: NOW.toISOString(),
      transaction: validTransaction({ model: "gpt-4o-mini" }),
    });
    expect(published?.attributes).toEqual({});
  });

  it("queues a bulk request in order, one message per transaction, the first id as Idempotency-Key", async () => {
    const models = ["m-0", "m-1", "m-2"];
    const response = await gateway.postUsage({ transactions: models.map((model) => validTransaction({ model })) }, key);
    expect(response.status).toBe(202);
    const published = publishedFor(response.headers.get("x-request-id"));
    expect(published.map((each) => each.message.transaction.model)).toEqual(models);
    expect(published.map((each) => each.message.transaction_index)).toEqual([0, 1, 2]);
    const body = await response.json();
    expect(body.events_queued).toBe(3);
    expect(body.results).toEqual(published.map((each, index) => ({ transaction_index: index, message_id: each.id })));
    expect(response.headers.get("idempotency-key")).toBe(published[0]?.id);
  });

  it("answers 207 for a bulk with invalid transactions: the valid ones queued, each invalid one named", async () => {
    const transactions = [validTransaction({ provider: "nope" }), validTransaction(), validTransaction({ usage: [] })];
    const response = await gateway.postUsage({ transactions }, key);
    expect(response.status).toBe(207);
    const [published] = publishedFor(response.headers.get("x-request-id"));
    expect(published?.message.transaction_index).toBe(1);
    const body = await response.json();
    expect(body).toMatchObject({ status: "partial_success", events_queued: 1, events_failed: 2 });
    expect(body.message).toBe("1 transaction(s) queued, 2 failed");
    expect(body.results[0]).toEqual({
      transaction_index: 0,
      message_id: null,
      error: expect.stringMatching(/^validation failed: transactions\.0\.provider \(invalid_value\): /),
    });
    expect(body.results[1]).toEqual({ transaction_index: 1, message_id: published?.id });
    expect(body.results[2].error).toMatch(/^validation failed: transactions\.2\.usage \(too_small\)/);
    expect(response.headers.get("idempotency-key")).toBe(published?.id);
  });

  it("sends each transaction's own text from the body, spacing and key order kept", async () => {
    const text =
      '{ "context": {"billable_customer_id":"c-1"}, "model":"gpt-4o", "provider":"openai",\n "usage":[{"type":"tokens","metrics":{"input_tokens":1,"output_tokens":2,"total_tokens":3}}] }';
    const response = await gateway.postUsage(`{"transactions": [${text}]}`, key);
    expect(response.status).toBe(202);
    const [published] = publishedFor(response.headers.get("x-request-id"));
    expect(published?.transactionText).toBe(text);
  });

  it("writes a transaction again where its text holds a field the schema drops", async () => {
    const response = await gateway.postUsage(validTransaction({ not_a_field: true }), key);
    expect(response.status).toBe(202);
    const [published] = publishedFor(response.headers.get("x-request-id"));
    expect(published?.transactionText).toBeUndefined();
    expect(published?.message.transaction).not.toHaveProperty("not_a_field");
  });

  it("accepts a gzip body and forwards the request's trace with each message", async () => {
    const traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    const response = await gateway.request("/usage/transactions", {
      method: "POST",
      headers: { ...key, "content-type": "application/json", "content-encoding": "gzip", traceparent },
      body: gzipSync(JSON.stringify({ transactions: [validTransaction(), validTransaction()] })),
    });
    expect(response.status).toBe(202);
    const published = publishedFor(response.headers.get("x-request-id"));
    expect(published).toHaveLength(2);
    expect(published[0]?.attributes).toEqual({ traceparent });
  });

  it("logs one line for the request with the events it queued and failed", async () => {
    const response = await gateway.postUsage({ transactions: [validTransaction(), { provider: 1 }] }, key);
    const requestId = response.headers.get("x-request-id");
    await response.arrayBuffer();
    await expect
      .poll(() => gateway.logger.lines.find((line) => line.fields?.request_id === requestId))
      .toMatchObject({
        severity: "INFO",
        message: "POST /usage/transactions 207",
        fields: { organization_id: org.organizationId, status: 207, events_queued: 1, events_failed: 1 },
      });
  });
});
