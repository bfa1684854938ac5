import { withTimeout } from "@usage-ingestion/shared";
import type { ActiveKey, KeyStore } from "./key-store.ts";

export interface KeyCacheOptions {
  ttlMs: number;
  maxEntries: number;
  lookupTimeoutMs: number;
  /**
   * How long past its TTL a key found active is still accepted while the store cannot answer (0: never).
   * A key revoked just before an outage may be accepted that much longer; with the store up, nothing
   * changes: an expired key is looked up again and a revoked one refused.
   */
  serveStaleMs?: number;
  /** Told when a key is accepted on its stale entry because the store failed (for a log line). */
  onStale?: (error: KeyLookupError) => void;
  now?: () => number;
}

export class KeyLookupError extends Error {
  override name = "KeyLookupError";
}

/** `staleUntil`: how long a hit may stand in for the store while it fails (expiresAt + serveStaleMs). */
type Entry = { key: ActiveKey | null; expiresAt: number; staleUntil: number };

/** While the store fails, a key served on its stale entry is not asked about again for this long. */
export const STALE_RETRY_MS = 1_000;

/**
 * Caches hits and misses for `ttlMs` (so a revoked key stops working within that time), bounds the
 * cache by entry count (oldest first out), and collapses concurrent look-ups of one key into one read.
 * Misses are kept apart from hits, each bounded alone, so a flood of random keys never pushes a good key
 * out. Failures are never cached and surface as KeyLookupError (the caller answers 500, not 401), except
 * for a key found active within `serveStaleMs` past its TTL: that key is accepted on what was last read
 * while the store is unreachable, so an outage of the store does not refuse the tenants it just served.
 */
export function cachedKeyStore(store: KeyStore, options: KeyCacheOptions): KeyStore {
  const now = options.now ?? Date.now;
  const serveStaleMs = options.serveStaleMs ?? 0;
  const hits = new Map<string, Entry>();
  const misses = new Map<string, Entry>();
  const inFlight = new Map<string, Promise<ActiveKey | null>>();

  function fresh(keyHash: string): Entry | undefined {
    const hit = hits.get(keyHash);
    const entry = hit ?? misses.get(keyHash);
    if (!entry) return undefined;
    const at = now();
    if (entry.expiresAt > at) return entry;
    // A hit is kept past its TTL, within serveStaleMs, for an outage of the store; never answered from.
    if (!hit || entry.staleUntil <= at) {
      hits.delete(keyHash);
      misses.delete(keyHash);
    }
    return undefined;
  }

  /**
   * The active key last read for this hash, if it is still within serveStaleMs past its TTL; it then
   * stands for STALE_RETRY_MS more, so that requests do not each wait on a failing store.
   */
  function stale(keyHash: string): ActiveKey | undefined {
    const hit = hits.get(keyHash);
    const at = now();
    if (!hit?.key || hit.staleUntil <= at) return undefined;
    hit.expiresAt = Math.min(at + STALE_RETRY_MS, hit.staleUntil);
    return hit.key;
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
    const expiresAt = now() + options.ttlMs;
    cache.set(keyHash, { key, expiresAt, staleUntil: expiresAt + serveStaleMs });
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
      const failure =
        error instanceof KeyLookupError ? error : new KeyLookupError("key look-up failed", { cause: error });
      const last = stale(keyHash);
      if (last) {
        options.onStale?.(failure);
        return last;
      }
      throw failure;
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
