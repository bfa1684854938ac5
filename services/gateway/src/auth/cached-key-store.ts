import { withTimeout } from "@usage-ingestion/shared";
import type { KeyStore } from "./key-store.ts";

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
  const cache = new Map<string, { organizationId: string | null; expiresAt: number }>();
  const inFlight = new Map<string, Promise<string | null>>();

  function remember(keyHash: string, organizationId: string | null) {
    if (options.ttlMs <= 0) return;
    cache.delete(keyHash);
    if (cache.size >= options.maxEntries) {
      const oldest = cache.keys().next();
      if (!oldest.done) cache.delete(oldest.value);
    }
    cache.set(keyHash, { organizationId, expiresAt: now() + options.ttlMs });
  }

  async function load(keyHash: string): Promise<string | null> {
    try {
      const organizationId = await withTimeout(
        store.findActiveOrganization(keyHash),
        options.lookupTimeoutMs,
        () => new KeyLookupError(`key look-up took longer than ${options.lookupTimeoutMs} ms`),
      );
      remember(keyHash, organizationId);
      return organizationId;
    } catch (error) {
      throw error instanceof KeyLookupError ? error : new KeyLookupError("key look-up failed", { cause: error });
    } finally {
      inFlight.delete(keyHash);
    }
  }

  return {
    findActiveOrganization(keyHash) {
      const cached = cache.get(keyHash);
      if (cached && cached.expiresAt > now()) return Promise.resolve(cached.organizationId);
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
