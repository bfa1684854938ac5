import { afterEach, describe, expect, it } from "vitest";
import type { RateLimitConfig } from "../limits/rate-limits.ts";
import { startTestGateway, type TestGateway } from "../testing/gateway-harness.ts";
import { validTransaction } from "../testing/transactions.ts";

// Valid keys are never locked out by others' junk: behind one address (a corporate NAT, a cloud's shared
// egress) another client's unknown keys exhaust the address's look-ups, and a key this gateway found valid
// is still served, with its cache expired; and through an outage of the key store, a key found active
// shortly before is still accepted (a stand-in store that fails, as Firestore unreachable does).

const LIMITS: RateLimitConfig = {
  organization: { ingestPerSecond: 1000, ingestBurst: 1000, reportsPerMinute: 60 },
  key: { ingestPerSecond: 1000, ingestBurst: 1000, reportsPerMinute: 60 },
  unknownKeysPerMinute: 3,
};
const TTL_MS = 200;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let gateway: TestGateway | undefined;
afterEach(async () => {
  await gateway?.close();
  gateway = undefined;
});

describe("a valid key behind an address that sent junk", () => {
  it("is served past the address's unknown keys, its cache expired; an unseen key still counts as unknown", async () => {
    gateway = await startTestGateway(
      { rateLimits: LIMITS },
      { keyCache: { ttlMs: TTL_MS, maxEntries: 100, lookupTimeoutMs: 1_000 } },
    );
    const tenant = gateway.keys.organization();
    const send = (key: string) => (gateway as TestGateway).postUsage(validTransaction(), { "x-api-key": key });
    expect((await send(tenant.ingestKey)).status).toBe(202);
    // Someone else on the same address: junk keys until the address is refused.
    for (let n = 0; n < LIMITS.unknownKeysPerMinute; n++) expect((await send(`usk_junk_${n}`)).status).toBe(401);
    expect((await send("usk_junk_more")).status).toBe(429);
    await pause(TTL_MS * 2);
    // Its cache entry has expired: the valid key is looked up again, not refused for the junk.
    expect((await send(tenant.ingestKey)).status).toBe(202);
    expect((await send(tenant.ingestKey)).status).toBe(202);
    // Revoked, it is forgotten: it counts as unknown again.
    gateway.keys.disable(tenant.ingestKey);
    await pause(TTL_MS * 2);
    expect((await send(tenant.ingestKey)).status).toBe(401);
    // (Its miss is cached, and answered without a look-up, for the cache time.)
    expect((await send(tenant.ingestKey)).status).toBe(401);
    await pause(TTL_MS * 2);
    expect((await send(tenant.ingestKey)).status).toBe(429);
    // A key this gateway never served is unknown to it until its first look-up, as before.
    const newcomer = gateway.keys.organization();
    expect((await send(newcomer.ingestKey)).status).toBe(429);
  });
});

describe("a valid key through an outage of the key store", () => {
  it("is accepted for the bound past its cache time while the store fails; an unseen key is a 500", async () => {
    gateway = await startTestGateway(
      { rateLimits: LIMITS },
      { keyCache: { ttlMs: TTL_MS, maxEntries: 100, lookupTimeoutMs: 1_000, serveStaleMs: 1_000 } },
    );
    const tenant = gateway.keys.organization();
    const other = gateway.keys.organization();
    const send = (key: string) => (gateway as TestGateway).postUsage(validTransaction(), { "x-api-key": key });
    expect((await send(tenant.ingestKey)).status).toBe(202);
    gateway.keys.failWith(new Error("14 UNAVAILABLE: Firestore unreachable"));
    await pause(TTL_MS * 2);
    for (let n = 0; n < 5; n++) expect((await send(tenant.ingestKey)).status).toBe(202);
    // A key it never found active cannot be told apart from a bad one: retry, not 401.
    const unseen = await send(other.ingestKey);
    expect(unseen.status).toBe(500);
    // Past the bound, the failure is the tenant's 500 again, so a key revoked before the outage stops.
    await pause(1_100);
    expect((await send(tenant.ingestKey)).status).toBe(500);
    gateway.keys.failWith(undefined);
    expect((await send(tenant.ingestKey)).status).toBe(202);
  });
});
