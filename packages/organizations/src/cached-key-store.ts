import { withTimeout } from "@usage-ingestion/shared";
import type { ActiveKey, KeyStore } from "./key-store.ts";

export interface KeyCacheOptions {
  ttlMs: number;
  maxEntries: number;
  lookupTimeoutMs: number;
  now?: () => number;
}

export class KeyLookupError extends Error {
  override name = "KeyLookupError";
}

type Entry = { key: ActiveKey | null; expiresAt: number };

/**
 * Caches hits and misses for `ttlMs` (so a revoked key stops working within that time), bounds the
 * cache by entry count (oldest first out), and collapses concurrent look-ups of one key into one read.
 * Misses are kept apart from hits, each bounded alone, so a flood of random keys never pushes a good key
 * out. Failures are never cached and surface as KeyLookupError: the caller answers 500, not 401.
 */
export function cachedKeyStore(store: KeyStore, options: KeyCacheOptions): KeyStore {
  const now = options.now ?? Date.now;
  const hits = new Map<string, Entry>();
  const misses = new Map<string, Entry>();
  const inFlight = new Map<string, Promise<ActiveKey | null>>();

  function fresh(keyHash: string): Entry | undefined {
    const entry = hits.get(keyHash) ?? misses.get(keyHash);
    if (!entry) return undefined;
    if (entry.expiresAt > now()) return entry;
    hits.delete(keyHash);
    misses.delete(keyHash);
    return undefined;
  }

  function remember(keyHash: string, key: ActiveKey | null) {
    if (options.ttlMs <= 0) return;
    hits.delete(keyHash);
    misses.delete(keyHash);
    const cache = key ? hits : misses;
    if (cache.size >= options.maxEntries) {
      const oldest = cache.keys().next();
      if (!oldest.done) cache.delete(oldest.value);
    }
    cache.set(keyHash, { key, expiresAt: now() + options.ttlMs });
  }

  async function load(keyHash: string): Promise<ActiveKey | null> {
    try {
      const key = await withTimeout(
        store.findActiveKey(keyHash),
        options.lookupTimeoutMs,
        () => new KeyLookupError(`key look-up took longer than ${options.lookupTimeoutMs} ms`),
      );
      remember(keyHash, key);
      return key;
    } catch (error) {
      throw error instanceof KeyLookupError ? error : new KeyLookupError("key look-up failed", { cause: error });
    } finally {
      inFlight.delete(keyHash);
    }
  }

  return {
    cached: (keyHash) => fresh(keyHash)?.key,
    findActiveKey(keyHash) {
      const cached = fresh(keyHash);
      if (cached) return Promise.resolve(cached.key);
      let pending = inFlight.get(keyHash);
      if (!pending) {
        pending = load(keyHash);
        inFlight.set(keyHash, pending);
      }
      return pending;
    },
  };
}
