import { request } from "node:http";
import { MAX_MEMBERS_PER_OBJECT, MAX_VALUES_PER_BODY, MAX_VALUES_PER_TRANSACTION } from "@usage-ingestion/shared";
import { afterEach, describe, expect, it } from "vitest";
import type { RateLimitConfig } from "../limits/rate-limits.ts";
import { startTestGateway, type TestGateway } from "../testing/gateway-harness.ts";
import { validTransaction } from "../testing/transactions.ts";

// Limits on work, not only on counts: a request is refused before validation when it holds more members
// in one object, or values in one transaction or body, than the bounds (limits.ts), and it is charged its
// bytes and values against its tenant's rate, however few transactions it holds.

let gateway: TestGateway | undefined;
afterEach(async () => {
  await gateway?.close();
  gateway = undefined;
});

const unknownMembers = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`m${i}`, 1]));

describe("POST /usage/transactions: bounds on work, checked before validation", () => {
  it("refuses a transaction with 300,000 unknown members (a 3 MB body that answered 202)", async () => {
    gateway = await startTestGateway();
    const org = gateway.keys.organization();
    const body = JSON.stringify(validTransaction(unknownMembers(300_000)));
    expect(body.length).toBeGreaterThan(3_000_000);
    const response = await gateway.postUsage(body, { "x-api-key": org.ingestKey });
    expect(response.status).toBe(400);
    // Refused on a scan of its text, before it is parsed into an object of 300,000 members.
    expect((await response.json()).error.details).toEqual([
      {
        field: "body",
        code: "too_large",
        message: `body holds more than ${MAX_VALUES_PER_BODY} values (object members and array elements)`,
      },
    ]);
    expect(gateway.publisher.published).toHaveLength(0);
  });

  it("refuses an object of more members than its bound, however small the body", async () => {
    gateway = await startTestGateway();
    const org = gateway.keys.organization();
    const response = await gateway.postUsage(validTransaction(unknownMembers(MAX_MEMBERS_PER_OBJECT)), {
      "x-api-key": org.ingestKey,
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error.details).toEqual([
      { field: "body", code: "too_large", message: `body has more than ${MAX_MEMBERS_PER_OBJECT} members` },
    ]);
  });

  it("names the transaction of a bulk that holds too many values, at any depth", async () => {
    gateway = await startTestGateway();
    const org = gateway.keys.organization();
    // Many small objects, none past the members' bound: the values of the transaction add up.
    const raw = Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`part_${i}`, { a: 1, b: 2, c: 3, d: 4 }]));
    const heavy = validTransaction({ provider_usage_raw: raw });
    const response = await gateway.postUsage(
      { transactions: [validTransaction(), heavy] },
      { "x-api-key": org.ingestKey },
    );
    // Refused alone, as a field error of its own would refuse it: the other transaction is queued.
    expect(response.status).toBe(207);
    const body = await response.json();
    expect(body.events_queued).toBe(1);
    expect(body.results[1].error).toBe(
      `validation failed: transactions.1 (too_large): transactions.1 holds more than ${MAX_VALUES_PER_TRANSACTION} values (object members and array elements)`,
    );
    // Alone in its bulk, it is the request's 400 with the field error.
    const alone = await gateway.postUsage({ transactions: [heavy] }, { "x-api-key": org.ingestKey });
    expect(alone.status).toBe(400);
    expect((await alone.json()).error.details).toEqual([
      {
        field: "transactions.0",
        code: "too_large",
        message: `transactions.0 holds more than ${MAX_VALUES_PER_TRANSACTION} values (object members and array elements)`,
      },
    ]);
  });

  it("bounds the values of a whole body", async () => {
    gateway = await startTestGateway();
    const org = gateway.keys.organization();
    // 1,000 transactions of 150 values each: each within its own bound, 150,000 together.
    const raw = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`part_${i}`, { a: 1, b: 2, c: 3, d: 4 }]));
    const transactions = Array.from({ length: 1_000 }, () => validTransaction({ provider_usage_raw: raw }));
    const response = await gateway.postUsage({ transactions }, { "x-api-key": org.ingestKey });
    expect(response.status).toBe(400);
    expect((await response.json()).error.details[0]).toMatchObject({
      field: "body",
      code: "too_large",
      message: `body holds more than ${MAX_VALUES_PER_BODY} values (object members and array elements)`,
    });
  });
});

describe("POST /usage/transactions: charged by its work", () => {
  const LIMITS: RateLimitConfig = {
    organization: { ingestPerSecond: 50, ingestBurst: 0, reportsPerMinute: 60 },
    key: { ingestPerSecond: 50, ingestBurst: 0, reportsPerMinute: 60 },
    unknownKeysPerMinute: 60,
  };

  it("counts 4 KiB received as a transaction: one heavy transaction reaches a limit of 50 a second", async () => {
    gateway = await startTestGateway({ rateLimits: LIMITS });
    const org = gateway.keys.organization();
    // One transaction of about 240 KiB (within its own 256 KiB bound): 60 transactions' worth of bytes.
    const heavy = validTransaction({ provider_usage_raw: { note: "x".repeat(240 * 1024) } });
    const refused = await gateway.postUsage(heavy, { "x-api-key": org.ingestKey });
    expect(refused.status).toBe(429);
    expect((await refused.json()).error.code).toBe("rate_limited");
    // A light tenant beside it is untouched.
    const light = gateway.keys.organization();
    expect((await gateway.postUsage(validTransaction(), { "x-api-key": light.ingestKey })).status).toBe(202);
  });

  it("charges a refused heavy body its bytes, so refusals are not free", async () => {
    gateway = await startTestGateway({ rateLimits: LIMITS });
    const org = gateway.keys.organization();
    // About 60 KiB of members past the bound: 400 the first time, then its bytes have used the second's budget.
    const junk = JSON.stringify(validTransaction(unknownMembers(6_000)));
    expect(Math.ceil(junk.length / 4096)).toBeGreaterThan(12);
    const answers = [];
    for (let n = 0; n < 8; n++) answers.push((await gateway.postUsage(junk, { "x-api-key": org.ingestKey })).status);
    expect(answers[0]).toBe(400);
    expect(answers).toContain(429);
  });

  it("refuses a large body of a tenant past its limit before reading it", async () => {
    gateway = await startTestGateway({ rateLimits: LIMITS });
    const org = gateway.keys.organization();
    // Past its limit: one 240 KiB transaction is 60 transactions' worth.
    const heavy = validTransaction({ provider_usage_raw: { note: "x".repeat(240 * 1024) } });
    expect((await gateway.postUsage(heavy, { "x-api-key": org.ingestKey })).status).toBe(429);
    // A body declared at 1 MB of which only the first bytes are sent: answered at once, never waited for.
    const { port } = new URL(gateway.baseUrl);
    const status = await new Promise<number>((resolve, reject) => {
      const sent = request(
        {
          host: "127.0.0.1",
          port,
          method: "POST",
          path: "/usage/transactions",
          headers: { "content-type": "application/json", "content-length": 1_000_000, "x-api-key": org.ingestKey },
        },
        (answer) => {
          answer.resume();
          resolve(answer.statusCode ?? 0);
          sent.destroy();
        },
      );
      sent.once("error", (error) =>
        (error as NodeJS.ErrnoException).code === "ECONNRESET" ? undefined : reject(error),
      );
      sent.write('{"provider":"openai"');
    });
    expect(status).toBe(429);
  });
});
