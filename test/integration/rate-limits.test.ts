import type { RateLimitConfig } from "@usage-ingestion/gateway";
import { pubSubPublisher } from "@usage-ingestion/gateway";
import { createApiKey, firestoreKeyStore, type KeyStore } from "@usage-ingestion/organizations";
import { DOCUMENT_PATHS } from "@usage-ingestion/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validTransaction } from "../setup/fixtures.ts";
import { failingWhere, startTestGateway } from "../setup/gateway.ts";
import { databases, firestore, pubsub, pullableTopic, seedOrganization } from "../setup/harness.ts";

/** Small limits, so that a few requests reach each of them. */
const LIMITS: RateLimitConfig = {
  organization: { ingestPerSecond: 8, ingestBurst: 0, reportsPerMinute: 3 },
  key: { ingestPerSecond: 5, ingestBurst: 0, reportsPerMinute: 2 },
  unknownKeysPerMinute: 3,
};
const bulk = (count: number) => ({ transactions: Array.from({ length: count }, () => validTransaction()) });

let gateway: Awaited<ReturnType<typeof startTestGateway>>;
let org: Awaited<ReturnType<typeof seedOrganization>>;
let second: Awaited<ReturnType<typeof seedOrganization>>;
let published = 0;
const lookups: string[] = [];

beforeAll(async () => {
  [org, second] = await Promise.all([seedOrganization(), seedOrganization()]);
  // The second organization's own limits win over the defaults.
  await firestore()
    .doc(DOCUMENT_PATHS.organization(second.organizationId))
    .update({ limits: { ingest_transactions_per_second: 20 } });
  const topic = await pullableTopic();
  const real = pubSubPublisher(pubsub(), { topic: topic.topicName, timeoutMs: 10_000 });
  const store = firestoreKeyStore(databases());
  const counting: KeyStore = {
    findActiveKey: (hash) => {
      lookups.push(hash);
      return store.findActiveKey(hash);
    },
  };
  gateway = await startTestGateway({
    topicName: topic.topicName,
    keyStore: counting,
    rateLimits: LIMITS,
    publisher: failingWhere(real, () => {
      published++;
      return false;
    }),
  });
});
afterAll(() => gateway?.close());

/** A limiter's second starts at its first request: past 1.1 s every window of the tests has ended. */
const waitForNextSecond = () => new Promise((resolve) => setTimeout(resolve, 1_100));

describe("ingestion rate limits, in transactions a second", () => {
  it("counts a bulk's transactions per key: within the limit 202 with RateLimit headers, past it 429", async () => {
    await waitForNextSecond();
    published = 0;
    const first = await gateway.post(bulk(3), { "X-Api-Key": org.apiKey });
    expect(first.status).toBe(202);
    expect(first.headers.get("ratelimit-limit")).toBe("5");
    expect(first.headers.get("ratelimit-remaining")).toBe("2");
    expect(Number(first.headers.get("ratelimit-reset"))).toBeGreaterThanOrEqual(1);

    const refused = await gateway.post(bulk(3), { "X-Api-Key": org.apiKey });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get("ratelimit-limit")).toBe("5");
    expect(refused.headers.get("ratelimit-remaining")).toBe("0");
    expect(refused.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const body = await refused.json();
    expect(body).toEqual({
      error: {
        code: "rate_limited",
        message:
          "Rate limit reached: 5 transactions a second (burst 0) for the key. Nothing was queued; retry after the Retry-After seconds.",
      },
    });
    // The refused request queued nothing.
    expect(published).toBe(3);
  });

  it("counts every key of an organization together", async () => {
    await waitForNextSecond();
    const { key: other } = await createApiKey(databases(), org.organizationId);
    expect((await gateway.post(bulk(5), { "X-Api-Key": org.apiKey })).status).toBe(202);
    const refused = await gateway.post(bulk(4), { "X-Api-Key": other });
    expect(refused.status).toBe(429);
    expect((await refused.json()).error.message).toContain("8 transactions a second (burst 0) for the organization");
  });

  it("applies an organization's own limits over the defaults", async () => {
    await waitForNextSecond();
    const response = await gateway.post(bulk(5), { "X-Api-Key": second.apiKey });
    expect(response.status).toBe(202);
    // The key's own default (5) is now the tightest, not the organization's 20.
    expect(response.headers.get("ratelimit-limit")).toBe("5");
    await waitForNextSecond();
    const refused = await gateway.post(bulk(6), { "X-Api-Key": second.apiKey });
    expect((await refused.json()).error.message).toContain("for the key");
  });
});

describe("report rate limits, in requests a minute", () => {
  it("answers 429 past the key's requests a minute", async () => {
    const read = () => fetch(`${gateway.baseUrl}/usage/unpriced`, { headers: { "x-api-key": org.readKey } });
    expect((await read()).status).toBe(200);
    const second = await read();
    expect(second.status).toBe(200);
    expect(second.headers.get("ratelimit-remaining")).toBe("0");
    const refused = await read();
    expect(refused.status).toBe(429);
    expect((await refused.json()).error.code).toBe("rate_limited");
  });
});

describe("unknown keys, per client address", () => {
  it("stop reaching the key store past the limit, while cached good keys still pass", async () => {
    await waitForNextSecond();
    // A good key seen before the flood stays in the cache (misses are cached apart).
    expect((await gateway.post(validTransaction(), { "X-Api-Key": second.apiKey })).status).toBe(202);
    const random = () => `usk_${crypto.randomUUID()}`;
    for (let i = 0; i < 3; i++) {
      expect((await gateway.post(validTransaction(), { "X-Api-Key": random() })).status).toBe(401);
    }
    const before = lookups.length;
    const refused = await gateway.post(validTransaction(), { "X-Api-Key": random() });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await refused.json()).error.code).toBe("rate_limited");
    expect(lookups.length).toBe(before);
    expect((await gateway.post(validTransaction(), { "X-Api-Key": second.apiKey })).status).toBe(202);
  });
});
