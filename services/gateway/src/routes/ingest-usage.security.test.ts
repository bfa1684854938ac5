import { hashApiKey } from "@usage-ingestion/organizations";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authCases } from "../testing/auth-cases.ts";
import { startTestGateway, type TestGateway } from "../testing/gateway-harness.ts";
import { validTransaction } from "../testing/transactions.ts";

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway.close());

describe("POST /usage/transactions: who may send", () => {
  it.each(authCases("ingest"))("answers 401 unauthorized for $name, and queues nothing", async (refused) => {
    const before = gateway.publisher.published.length;
    const response = await gateway.postUsage(validTransaction(), refused.headers(gateway.keys));
    expect(response.status).toBe(401);
    const body = await response.json();
    expect(body).toEqual({ error: { code: "unauthorized", message: expect.stringMatching(refused.message) } });
    expect(gateway.publisher.published.length).toBe(before);
  });

  it("answers 401 before reading the body: an unknown key with a broken body is not a 400", async () => {
    const response = await gateway.postUsage("{not json", { "x-api-key": "usk_unknown" });
    expect(response.status).toBe(401);
  });

  it("answers 500, never 401, while the key store cannot answer: the client must retry", async () => {
    const { ingestKey } = gateway.keys.organization();
    gateway.keys.failWith(new Error("key store down"));
    try {
      const response = await gateway.postUsage(validTransaction(), { "x-api-key": ingestKey });
      expect(response.status).toBe(500);
      expect((await response.json()).error.code).toBe("internal_error");
    } finally {
      gateway.keys.failWith(undefined);
    }
  });
});

describe("POST /usage/transactions: one organization's data", () => {
  it("queues under the key's organization whatever the body claims", async () => {
    const mine = gateway.keys.organization();
    const other = gateway.keys.organization();
    const response = await gateway.postUsage(
      { organization_id: other.organizationId, ...validTransaction({ organization_id: other.organizationId }) },
      { "x-api-key": mine.ingestKey },
    );
    expect(response.status).toBe(202);
    const requestId = response.headers.get("x-request-id");
    const [published] = gateway.publisher.published.filter((each) => each.message.request_id === requestId);
    expect(published?.message.organization_id).toBe(mine.organizationId);
    expect(published?.message.transaction).not.toHaveProperty("organization_id");
  });

  it("never writes the key, its hash or the body's values to the log", async () => {
    const { ingestKey } = gateway.keys.organization();
    const secret = "customer-secret-value";
    await gateway.postUsage(validTransaction({ context: { billable_customer_id: secret } }), {
      "x-api-key": ingestKey,
    });
    await gateway.postUsage(validTransaction({ model: "" }), { "x-api-key": ingestKey });
    await gateway.postUsage(validTransaction(), { "x-api-key": `${ingestKey}x` });
    await expect.poll(() => gateway.logger.lines.length).toBeGreaterThanOrEqual(3);
    const logged = gateway.logger.text();
    expect(logged).not.toContain(ingestKey);
    expect(logged).not.toContain(hashApiKey(ingestKey));
    expect(logged).not.toContain(secret);
  });
});

describe("POST /usage/transactions: hostile bodies", () => {
  const send = (body: unknown) =>
    gateway.postUsage(body, { "x-api-key": gateway.keys.organization({ dimensions: ["team"] }).ingestKey });

  it("answers 400 too_large for nesting past 64 levels, at the deepest path it can name, never 500", async () => {
    const deep = `{"provider":"openai","context":{"billable_customer_id":"c","x":${"[".repeat(100)}${"]".repeat(100)}}}`;
    const response = await send(deep);
    expect(response.status).toBe(400);
    const { error } = await response.json();
    expect(error.details[0]).toMatchObject({ code: "too_large", field: expect.stringMatching(/^context\.x\.0\.0/) });
  });

  it("takes __proto__ and constructor as plain keys of context, polluting nothing", async () => {
    const text = `{"provider":"openai","model":"m","usage":[{"type":"requests","metrics":{"count":1}}],"context":{"billable_customer_id":"c","__proto__":{"polluted":true},"constructor":"x"}}`;
    const response = await send(text);
    expect(response.status).toBe(202);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("refuses a lone surrogate in an identifier as invalid_format", async () => {
    const text = JSON.stringify(validTransaction({ model: "gpt-4o" })).replace('"gpt-4o"', '"gpt-\\ud800"');
    const response = await send(text);
    expect(response.status).toBe(400);
    expect((await response.json()).error.details).toEqual([
      expect.objectContaining({ field: "model", code: "invalid_format" }),
    ]);
  });

  it("refuses a declared dimension's value over 256 bytes, and a context of more than 64 keys", async () => {
    const long = await send(validTransaction({ context: { billable_customer_id: "c", team: "t".repeat(257) } }));
    expect((await long.json()).error.details).toEqual([
      expect.objectContaining({ field: "context.team", code: "too_large" }),
    ]);
    const keys = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`k${i}`, i]));
    const wide = await send(validTransaction({ context: { billable_customer_id: "c", ...keys } }));
    expect(wide.status).toBe(400);
    expect((await wide.json()).error.details[0]).toMatchObject({ field: "context", code: "too_large" });
  });

  it("refuses integers past 2^53 as too_large, not as a rounded number", async () => {
    const text = JSON.stringify(validTransaction()).replace('"input_tokens":100', '"input_tokens":9007199254740993');
    const response = await send(text);
    expect(response.status).toBe(400);
    expect((await response.json()).error.details[0]).toMatchObject({
      field: "usage.0.metrics.input_tokens",
      code: "too_large",
    });
  });

  it("answers 431 in the error envelope for headers past 16 KiB, with a request id", async () => {
    const response = await gateway.postUsage(validTransaction(), { "x-padding": "x".repeat(20 * 1024) });
    expect(response.status).toBe(431);
    expect(response.headers.get("x-request-id")).toBeTruthy();
    expect((await response.json()).error.code).toBe("validation_error");
  });
});

describe("POST /usage/transactions: guessing keys", () => {
  it("answers 429 to an address past its unknown keys a minute, before asking the store again", async () => {
    const guarded = await startTestGateway({
      rateLimits: {
        organization: { ingestPerSecond: 1000, ingestBurst: 1000, reportsPerMinute: 60 },
        key: { ingestPerSecond: 1000, ingestBurst: 1000, reportsPerMinute: 60 },
        unknownKeysPerMinute: 3,
      },
    });
    try {
      const guess = (n: number) => guarded.postUsage(validTransaction(), { "x-api-key": `usk_guess-${n}` });
      for (let n = 0; n < 3; n++) expect((await guess(n)).status).toBe(401);
      const refused = await guess(3);
      expect(refused.status).toBe(429);
      expect((await refused.json()).error.code).toBe("rate_limited");
      expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    } finally {
      await guarded.close();
    }
  });
});
