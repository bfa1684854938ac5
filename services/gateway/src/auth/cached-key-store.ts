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

/**
 * Caches hits and misses for `ttlMs` (so a revoked key stops working within that time), bounds the
 * cache by entry count (oldest first out), and collapses concurrent look-ups of one key into one read.
 * Failures are never cached and surface as KeyLookupError: the caller answers 500, not 401.
 */
export function cachedKeyStore(store: KeyStore, options: KeyCacheOptions): KeyStore {
  const now = options.now ?? Date.now;
  const cache = new Map<string, { key: ActiveKey | null; expiresAt: number }>();
  const inFlight = new Map<string, Promise<ActiveKey | null>>();

  function remember(keyHash: string, key: ActiveKey | null) {
    if (options.ttlMs <= 0) return;
    cache.delete(keyHash);
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
    findActiveKey(keyHash) {
      const cached = cache.get(keyHash);
      if (cached && cached.expiresAt > now()) return Promise.resolve(cached.key);
      if (cached) cache.delete(keyHash);
      let pending = inFlight.get(keyHash);
      if (!pending) {
        pending = load(keyHash);
        inFlight.set(keyHash, pending);
      }
      return pending;
    },
  };
}
