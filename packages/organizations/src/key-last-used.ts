import type { Firestore } from "@google-cloud/firestore";
import { COLLECTIONS } from "@usage-ingestion/shared";

export interface KeyLastUsedOptions {
  /** A key is written at most once in this time per instance (the lag `last_used_at` may have). */
  everyMs?: number;
  /** Keys remembered at most; past it the oldest is forgotten (it is then written again on its next use). */
  maxKeys?: number;
  now?: () => number;
  /** A write that failed: logged by the caller, never retried (the next use writes again). */
  onError?: (error: unknown) => void;
}

/**
 * Records when each key was last used, off the request path: `seen` is a map look-up (it never awaits and
 * never writes), and `flush` (run on a timer) writes each key seen since its last write, at most once per
 * `everyMs`. So ingestion pays one map look-up per request, and `last_used_at` lags by up to
 * `everyMs` plus the timer's period.
 */
export function keyLastUsed(keysDb: Firestore, options: KeyLastUsedOptions = {}) {
  const everyMs = options.everyMs ?? 5 * 60_000;
  const maxKeys = options.maxKeys ?? 10_000;
  const now = options.now ?? Date.now;
  const writtenAt = new Map<string, number>();
  const pending = new Map<string, number>();
  return {
    seen(keyHash: string): void {
      const at = now();
      const last = writtenAt.get(keyHash);
      if ((last !== undefined && at - last < everyMs) || pending.has(keyHash)) return;
      if (pending.size >= maxKeys) return;
      pending.set(keyHash, at);
    },
    async flush(): Promise<number> {
      const due = [...pending];
      pending.clear();
      for (const [keyHash, at] of due) {
        if (writtenAt.size >= maxKeys && !writtenAt.has(keyHash)) {
          const oldest = writtenAt.keys().next();
          if (!oldest.done) writtenAt.delete(oldest.value);
        }
        writtenAt.set(keyHash, at);
      }
      const writes = due.map(([keyHash, at]) =>
        keysDb
          .collection(COLLECTIONS.apiKeys)
          .doc(keyHash)
          .update({ last_used_at: new Date(at).toISOString() })
          .catch((error: unknown) => options.onError?.(error)),
      );
      await Promise.all(writes);
      return due.length;
    },
  };
}

export type KeyLastUsed = ReturnType<typeof keyLastUsed>;
