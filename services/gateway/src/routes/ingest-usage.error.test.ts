import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../testing/gateway-harness.ts";
import { validTransaction } from "../testing/transactions.ts";

let gateway: TestGateway;
let key: Record<string, string>;
beforeAll(async () => {
  gateway = await startTestGateway();
  key = { "x-api-key": gateway.keys.organization().ingestKey };
});
afterAll(() => gateway.close());
beforeEach(() => gateway.publisher.failWhere(() => false));

const post = (body: unknown) => gateway.postUsage(body, key);

describe("POST /usage/transactions: refused bodies", () => {
  it("answers 400 with every field error of a single transaction, at its own path", async () => {
    const response = await post(validTransaction({ provider: "nope", context: {} }));
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.error.code).toBe("validation_error");
    expect(body.error.message).toBe("The request failed validation with 2 field errors.");
    expect(body.error.details.map((detail: { field: string; code: string }) => [detail.field, detail.code])).toEqual([
      ["provider", "invalid_value"],
      ["context.billable_customer_id", "required"],
    ]);
    expect(response.headers.get("idempotency-key")).toBeNull();
    expect(gateway.publisher.published).toHaveLength(0);
  });

  it("answers 400 when every transaction of a bulk is invalid, each error under transactions.<i>.", async () => {
    const response = await post({ transactions: [validTransaction({ model: "" }), validTransaction({ usage: "x" })] });
    expect(response.status).toBe(400);
    const { error } = await response.json();
    expect(error.details.map((detail: { field: string }) => detail.field)).toEqual([
      "transactions.0.model",
      "transactions.1.usage",
    ]);
    expect(gateway.publisher.calls).toBe(0);
  });

  it.each([
    ["an array", "[1]"],
    ["null", "null"],
    ["a number", "42"],
    ["a string", '"text"'],
  ])("answers 400 invalid_type at body for %s", async (_name, text) => {
    const response = await post(text);
    expect(response.status).toBe(400);
    expect((await response.json()).error.details).toEqual([
      { field: "body", code: "invalid_type", message: "body must be a JSON object (a transaction or a bulk request)" },
    ]);
  });

  it.each([
    ["not an array", 1, "invalid_type"],
    ["empty", [], "too_small"],
    ["over 1000 transactions", Array.from({ length: 1001 }, () => validTransaction()), "too_large"],
  ])("answers 400 for a bulk whose transactions are %s", async (_name, transactions, code) => {
    const response = await post({ transactions });
    expect(response.status).toBe(400);
    const { error } = await response.json();
    expect(error.details).toHaveLength(1);
    expect(error.details[0]).toMatchObject({ field: "transactions", code });
  });

  it("answers 400 invalid_json, without details, for a body that is not JSON or is empty", async () => {
    const broken = await post('{"provider": ');
    expect(broken.status).toBe(400);
    const body = await broken.json();
    expect(body.error.code).toBe("invalid_json");
    expect(body.error.message).toMatch(/^The request body is not valid JSON: /);
    expect(body.error).not.toHaveProperty("details");
    expect((await (await post("")).json()).error).toEqual({
      code: "invalid_json",
      message: "The request body is empty; send a JSON object.",
    });
  });

  it("answers 400 invalid_json naming the Content-Type when it is not JSON", async () => {
    const response = await gateway.request("/usage/transactions", {
      method: "POST",
      headers: { ...key, "content-type": "text/plain" },
      body: JSON.stringify(validTransaction()),
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toEqual({
      code: "invalid_json",
      message: "The Content-Type header must be application/json, not text/plain.",
    });
  });

  it("answers 413 for a body over 5 MiB, before parsing it", async () => {
    const response = await post(`{"transactions":[${"1,".repeat(3_000_000)}1]}`);
    expect(response.status).toBe(413);
    const { error } = await response.json();
    expect(error.code).toBe("validation_error");
    expect(error.details).toEqual([{ field: "body", code: "too_large", message: expect.any(String) }]);
  });

  it("answers 405 with Allow for another method", async () => {
    const response = await gateway.request("/usage/transactions", { headers: key });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
  });
});

describe("POST /usage/transactions: Pub/Sub failing", () => {
  it("answers 500 when no transaction could be queued: every result null with its error, no Idempotency-Key", async () => {
    gateway.publisher.failWhere(() => true);
    const response = await post({ transactions: [validTransaction(), validTransaction()] });
    expect(response.status).toBe(500);
    const body = await response.json();
    expect(body.error).toEqual({
      code: "internal_error",
      message: "0 transaction(s) queued, 2 failed to queue; the request can be retried",
    });
    expect(body.events_failed).toBe(2);
    expect(body.results).toEqual([
      { transaction_index: 0, message_id: null, error: expect.any(String) },
      { transaction_index: 1, message_id: null, error: expect.any(String) },
    ]);
    expect(response.headers.get("idempotency-key")).toBeNull();
  });

  it("answers 207 when some were queued, and logs the failed indexes once", async () => {
    gateway.publisher.failWhere((message) => message.transaction_index === 1);
    const response = await post({ transactions: [validTransaction(), validTransaction(), validTransaction()] });
    expect(response.status).toBe(207);
    const body = await response.json();
    expect(body).toMatchObject({ events_queued: 2, events_failed: 1 });
    expect(body.results[1]).toEqual({ transaction_index: 1, message_id: null, error: expect.any(String) });
    expect(response.headers.get("idempotency-key")).toBe(body.results[0].message_id);
    const requestId = response.headers.get("x-request-id");
    const failures = gateway.logger.lines.filter(
      (line) => line.fields?.request_id === requestId && line.message.startsWith("publish failed"),
    );
    expect(failures).toEqual([
      expect.objectContaining({
        severity: "ERROR",
        message: "publish failed for 1 transaction(s)",
        fields: expect.objectContaining({ transaction_indexes: [1] }),
      }),
    ]);
  });

  it("answers 207, not 500, when the invalid ones failed validation and the valid ones failed to queue", async () => {
    gateway.publisher.failWhere(() => true);
    const response = await post({ transactions: [validTransaction(), { provider: 1 }] });
    expect(response.status).toBe(207);
    expect(await response.json()).toMatchObject({ events_queued: 0, events_failed: 2 });
    expect(response.headers.get("idempotency-key")).toBeNull();
  });
});

describe("POST /usage/transactions: compressed bodies (gzip or none)", () => {
  const send = (body: string | Uint8Array<ArrayBuffer>, encoding: string) =>
    gateway.request("/usage/transactions", {
      method: "POST",
      headers: { ...key, "content-type": "application/json", "content-encoding": encoding },
      body,
    });

  it("answers 400 invalid_json for a body that does not decompress as gzip", async () => {
    const calls = gateway.publisher.calls;
    const response = await send(JSON.stringify(validTransaction()), "gzip");
    expect(response.status).toBe(400);
    expect((await response.json()).error).toEqual({
      code: "invalid_json",
      message: "The request body does not decompress as gzip.",
    });
    expect(gateway.publisher.calls).toBe(calls);
  });

  it.each(["deflate", "br", "zstd", "compress", "gzip, gzip"])(
    "answers 415 for Content-Encoding %s, before reading the body",
    async (encoding) => {
      const calls = gateway.publisher.calls;
      const response = await send(JSON.stringify(validTransaction()), encoding);
      expect(response.status).toBe(415);
      const { error } = await response.json();
      expect(error.code).toBe("validation_error");
      expect(error.details).toEqual([
        {
          field: "headers.content-encoding",
          code: "invalid_value",
          message: "content-encoding must be gzip or absent",
        },
      ]);
      expect(gateway.publisher.calls).toBe(calls);
    },
  );

  it("takes identity as no encoding", async () => {
    const response = await send(JSON.stringify(validTransaction()), "identity");
    expect(response.status).toBe(202);
  });
});
