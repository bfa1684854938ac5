import { describe, expect, it } from "vitest";
import { bulk, validTransaction } from "../setup/fixtures.ts";
import { gatewayOnEmulators } from "../setup/gateway.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe("POST /usage/transactions on the emulators: accepted requests", () => {
  const setup = gatewayOnEmulators();

  it("queues one transaction and publishes exactly the versioned envelope", async () => {
    const sent = validTransaction({ model_tier: "batch", provider_usage_raw: { id: "resp_1" }, unknown_field: 1 });
    const before = Date.now();
    const response = await setup.gateway.post(sent, { "X-Api-Key": setup.org.apiKey });
    const body = await response.json();

    expect(response.status).toBe(202);
    expect(body).toEqual({
      status: "queued",
      events_queued: 1,
      message: "1 transaction(s) queued for processing",
      results: [{ transaction_index: 0, message_id: expect.any(String) }],
    });
    const requestId = response.headers.get("x-request-id");
    expect(requestId).toMatch(UUID);
    expect(response.headers.get("idempotency-key")).toBe(body.results[0].message_id);

    const [message, ...rest] = await setup.topic.pull(1);
    expect(rest).toEqual([]);
    expect(message?.id).toBe(body.results[0].message_id);
    expect(message?.attributes).toEqual({ organization_id: setup.org.organizationId, schema_version: "1" });
    const { unknown_field: _dropped, ...stored } = sent;
    expect(message?.data).toEqual({
      schema_version: 1,
      organization_id: setup.org.organizationId,
      request_id: requestId,
      transaction_index: 0,
      received_at: expect.any(String),
      transaction: stored,
    });
    const receivedAt = Date.parse((message?.data as { received_at: string } | undefined)?.received_at ?? "");
    expect(receivedAt).toBeGreaterThanOrEqual(before - 1000);
    expect(receivedAt).toBeLessThanOrEqual(Date.now());
  });

  it("queues a bulk request, one message per transaction, reported by index", async () => {
    const transactions = [0, 1, 2].map((i) => validTransaction({ model: `model-${i}` }));
    const response = await setup.gateway.post(bulk(...transactions), { "X-Api-Key": setup.org.apiKey });
    const body = await response.json();

    expect(response.status).toBe(202);
    expect(body.events_queued).toBe(3);
    expect(body.message).toBe("3 transaction(s) queued for processing");
    expect(body.results.map((r: { transaction_index: number }) => r.transaction_index)).toEqual([0, 1, 2]);
    const ids = body.results.map((r: { message_id: string }) => r.message_id);
    expect(new Set(ids).size).toBe(3);
    expect(response.headers.get("idempotency-key")).toBe(ids[0]);

    const messages = await setup.topic.pull(3);
    const byId = new Map(messages.map((m) => [m.id, m.data as { transaction_index: number; transaction: unknown }]));
    ids.forEach((id: string, index: number) => {
      expect(byId.get(id)?.transaction_index).toBe(index);
      expect(byId.get(id)?.transaction).toEqual(transactions[index]);
    });
  });

  it("publishes each transaction as validated, however the body was written", async () => {
    // Spaced out, keys reordered, a repeated key, an unknown field, -0 and an exponent: the messages
    // hold the validated transactions all the same.
    const spaced = JSON.stringify(
      validTransaction({ context: { environment: "é 𝄞", billable_customer_id: "c" } }),
      null,
      2,
    );
    const repeated = `{"model":"first",${JSON.stringify(validTransaction({ model: "second" })).slice(1)}`;
    const unknown = JSON.stringify(validTransaction({ unknown_field: [1] }));
    const numbers = JSON.stringify(validTransaction({ context: { billable_customer_id: "c", n: 1 } }))
      .replace('"n":1', '"n":-0,"m":25e-1')
      .replace('"output_tokens":300', '"output_tokens":3e2');
    const text = `{ "transactions" : [ ${spaced} ,\n${repeated},${unknown},${numbers} ] }`;
    const response = await setup.gateway.post(text, { "X-Api-Key": setup.org.apiKey });
    const body = await response.json();
    expect(response.status).toBe(202);

    const messages = await setup.topic.pull(4);
    const byId = new Map(messages.map((m) => [m.id, m.data as { transaction: unknown }]));
    const published = body.results.map((r: { message_id: string }) => byId.get(r.message_id)?.transaction);
    expect(published).toEqual([
      JSON.parse(spaced),
      validTransaction({ model: "second" }),
      validTransaction(),
      validTransaction({ context: { billable_customer_id: "c", n: 0, m: 2.5 } }),
    ]);
    expect(Object.is((published[3] as { context: { n: number } }).context.n, 0)).toBe(true);
  });

  it("queues the valid transactions of a bulk and reports the invalid ones (207)", async () => {
    const invalid = validTransaction({ context: { environment: "prod" } });
    const response = await setup.gateway.post(bulk(validTransaction(), invalid, validTransaction()), {
      "X-Api-Key": setup.org.apiKey,
    });
    const body = await response.json();

    expect(response.status).toBe(207);
    expect(body.status).toBe("partial_success");
    expect(body.events_queued).toBe(2);
    expect(body.events_failed).toBe(1);
    expect(body.message).toBe("2 transaction(s) queued, 1 failed");
    expect(body.results[1]).toEqual({
      transaction_index: 1,
      message_id: null,
      error: expect.stringContaining("transactions.1.context.billable_customer_id"),
    });
    expect(body.results[0].message_id).toEqual(expect.any(String));
    expect(body.results[2].message_id).toEqual(expect.any(String));
    expect(response.headers.get("idempotency-key")).toBe(body.results[0].message_id);
    expect(await setup.topic.pull(2)).toHaveLength(2);
  });

  it("accepts a charset parameter on the content type", async () => {
    const response = await setup.gateway.post(validTransaction(), {
      "X-Api-Key": setup.org.apiKey,
      "content-type": "application/json; charset=utf-8",
    });
    expect(response.status).toBe(202);
    expect(await setup.topic.pull(1)).toHaveLength(1);
  });

  it.each(["/health", "/healthz"])("answers the health check at %s", async (path) => {
    const response = await fetch(`${setup.gateway.baseUrl}${path}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ status: "ok" });
    expect(response.headers.get("x-request-id")).toMatch(UUID);
  });

  it("logs one structured line per request with the organization and counts", async () => {
    const response = await setup.gateway.post(bulk(validTransaction(), validTransaction()), {
      "X-Api-Key": setup.org.apiKey,
    });
    expect(response.status).toBe(202);
    await setup.topic.pull(2);
    const requestId = response.headers.get("x-request-id");
    const line = setup.gateway.logger.lines.find((entry) => entry.fields?.request_id === requestId);
    expect(line).toMatchObject({
      severity: "INFO",
      fields: { organization_id: setup.org.organizationId, status: 202, events_queued: 2, events_failed: 0 },
    });
    expect(line?.fields?.latency_ms).toEqual(expect.any(Number));
  });
});
