import { describe, expect, it } from "vitest";
import { cachedKeyStore, KeyLookupError } from "./cached-key-store.ts";
import type { ActiveKey, KeyStore } from "./key-store.ts";

/** A store that counts its reads and answers from a table; the cache's own logic is what is under test. */
function countingStore(table: Record<string, ActiveKey | null>, options: { fail?: boolean; delayMs?: number } = {}) {
  const reads: string[] = [];
  const store: KeyStore = {
    async findActiveKey(hash) {
      reads.push(hash);
      if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
      if (options.fail) throw new Error("store down");
      return table[hash] ?? null;
    },
  };
  return { store, reads };
}

const org1: ActiveKey = { organizationId: "org-1", scope: "ingest", dimensions: [] };

describe("cachedKeyStore", () => {
  const options = { ttlMs: 1_000, maxEntries: 2, lookupTimeoutMs: 100 };

  it("collapses concurrent look-ups of one key into one read", async () => {
    const { store, reads } = countingStore({ h1: org1 }, { delayMs: 20 });
    const cached = cachedKeyStore(store, options);
    const answers = await Promise.all(Array.from({ length: 10 }, () => cached.findActiveKey("h1")));
    expect(answers).toEqual(Array(10).fill(org1));
    expect(reads).toEqual(["h1"]);
  });

  it("caches hits and misses until the TTL passes", async () => {
    let now = 0;
    const { store, reads } = countingStore({ h1: org1 });
    const cached = cachedKeyStore(store, { ...options, now: () => now });
    expect(await cached.findActiveKey("h1")).toEqual(org1);
    expect(await cached.findActiveKey("nope")).toBeNull();
    expect(await cached.findActiveKey("h1")).toEqual(org1);
    expect(await cached.findActiveKey("nope")).toBeNull();
    expect(reads).toEqual(["h1", "nope"]);
    now = 1_001;
    await cached.findActiveKey("h1");
    expect(reads).toEqual(["h1", "nope", "h1"]);
  });

  it("bounds its size, dropping the oldest entry", async () => {
    const { store, reads } = countingStore({});
    const cached = cachedKeyStore(store, options);
    for (const hash of ["a", "b", "c", "a"]) await cached.findActiveKey(hash);
    expect(reads).toEqual(["a", "b", "c", "a"]);
  });

  it("never caches a failure, and reports it as a KeyLookupError", async () => {
    const { store, reads } = countingStore({}, { fail: true });
    const cached = cachedKeyStore(store, options);
    await expect(cached.findActiveKey("h")).rejects.toBeInstanceOf(KeyLookupError);
    await expect(cached.findActiveKey("h")).rejects.toBeInstanceOf(KeyLookupError);
    expect(reads).toEqual(["h", "h"]);
  });

  it("gives up on a slow store after the look-up bound", async () => {
    const { store } = countingStore({ h: org1 }, { delayMs: 1_000 });
    const cached = cachedKeyStore(store, options);
    await expect(cached.findActiveKey("h")).rejects.toThrow(/longer than 100 ms/);
  });
  it("keeps misses apart, so a flood of unknown keys never pushes a good key out", async () => {
    const { store, reads } = countingStore({ h1: org1 });
    const cached = cachedKeyStore(store, options);
    await cached.findActiveKey("h1");
    for (let i = 0; i < 10; i++) await cached.findActiveKey(`random-${i}`);
    expect(cached.cached?.("h1")).toEqual(org1);
    expect(await cached.findActiveKey("h1")).toEqual(org1);
    expect(reads.filter((hash) => hash === "h1")).toHaveLength(1);
    expect(cached.cached?.("random-9")).toBeNull();
    expect(cached.cached?.("never-seen")).toBeUndefined();
  });
});

/** A store that answers from a table until it is told to fail (an outage), then again when told. */
function outageStore(table: Record<string, ActiveKey | null>) {
  const reads: string[] = [];
  let down = false;
  const store: KeyStore = {
    async findActiveKey(hash) {
      reads.push(hash);
      if (down) throw new Error("14 UNAVAILABLE: no connection to Firestore");
      return table[hash] ?? null;
    },
  };
  const setDown = (value: boolean) => {
    down = value;
  };
  return { store, reads, setDown, table };
}

describe("cachedKeyStore through an outage of the store", () => {
  const options = { ttlMs: 10_000, maxEntries: 100, lookupTimeoutMs: 100, serveStaleMs: 60_000 };

  it("accepts a key found active for serveStaleMs past its TTL while the store fails, then refuses it", async () => {
    let now = 0;
    const { store, reads, setDown } = outageStore({ h1: org1 });
    const staleServed: Error[] = [];
    const cached = cachedKeyStore(store, { ...options, now: () => now, onStale: (error) => staleServed.push(error) });
    expect(await cached.findActiveKey("h1")).toEqual(org1);
    setDown(true);
    now = 10_001;
    // Past its TTL the store is asked, fails, and the key last read stands in.
    expect(cached.cached?.("h1")).toBeUndefined();
    expect(await cached.findActiveKey("h1")).toEqual(org1);
    expect(staleServed).toEqual([expect.any(KeyLookupError)]);
    expect(reads).toEqual(["h1", "h1"]);
    // For a second more, requests take it without waiting on the failing store.
    now = 10_500;
    expect(cached.cached?.("h1")).toEqual(org1);
    now = 11_002;
    expect(await cached.findActiveKey("h1")).toEqual(org1);
    expect(reads).toHaveLength(3);
    // Never past TTL + serveStaleMs: then the failure is the caller's 500 again.
    now = 70_000;
    await expect(cached.findActiveKey("h1")).rejects.toBeInstanceOf(KeyLookupError);
    // And a key it never found active is not accepted in an outage.
    await expect(cached.findActiveKey("h2")).rejects.toBeInstanceOf(KeyLookupError);
  });

  it("changes nothing while the store answers: an expired key revoked meanwhile is refused at once", async () => {
    let now = 0;
    const { store, table } = outageStore({ h1: org1 });
    const cached = cachedKeyStore(store, { ...options, now: () => now });
    expect(await cached.findActiveKey("h1")).toEqual(org1);
    table.h1 = null;
    now = 10_001;
    expect(await cached.findActiveKey("h1")).toBeNull();
  });

  it("serves nothing stale without serveStaleMs", async () => {
    let now = 0;
    const { store, setDown } = outageStore({ h1: org1 });
    const cached = cachedKeyStore(store, { ...options, serveStaleMs: 0, now: () => now });
    await cached.findActiveKey("h1");
    setDown(true);
    now = 10_001;
    await expect(cached.findActiveKey("h1")).rejects.toBeInstanceOf(KeyLookupError);
  });
});
