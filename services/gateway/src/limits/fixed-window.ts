/** What one consumption left: as rate-limiter-flexible's RateLimiterRes reports it. */
export interface WindowCount {
  /** Points left in the window, never below 0. */
  remainingPoints: number;
  /** Until the window ends (and the count starts again), in milliseconds. */
  msBeforeNext: number;
  /** Whether this consumption went past the window's points. */
  refused: boolean;
}

interface Window {
  consumed: number;
  endsAt: number;
}

/**
 * `points` a window of `durationMs` per key, the window starting with a key's first consumption after
 * the last one ended: the counting of rate-limiter-flexible's RateLimiterMemory (a refused consumption
 * still counts), synchronous, so a request within its limits passes without waiting for a turn. Ended
 * windows are dropped at most once a window, on a later consumption, instead of one timer per key.
 */
export function fixedWindow(points: number, durationMs: number, clock: () => number = Date.now) {
  const windows = new Map<string, Window>();
  let sweepAt = 0;
  const sweep = (now: number) => {
    for (const [key, window] of windows) if (window.endsAt <= now) windows.delete(key);
    sweepAt = now + durationMs;
  };
  return {
    points,
    consume(key: string, taken: number): WindowCount {
      const now = clock();
      if (now >= sweepAt) sweep(now);
      let window = windows.get(key);
      if (window && window.endsAt > now) window.consumed += taken;
      else {
        window = { consumed: taken, endsAt: now + durationMs };
        windows.set(key, window);
      }
      return {
        remainingPoints: Math.max(points - window.consumed, 0),
        msBeforeNext: window.endsAt - now,
        refused: window.consumed > points,
      };
    },
  };
}

export type FixedWindow = ReturnType<typeof fixedWindow>;

/**
 * A steady window with a burst window behind it (rate-limiter-flexible's BurstyRateLimiter): the burst
 * is consumed only when the steady window refuses; then the steady count with the sooner of the two ends,
 * refused when the burst refuses too.
 */
export function withBurst(steady: FixedWindow, burst: FixedWindow) {
  return {
    consume(key: string, taken: number): WindowCount {
      const rate = steady.consume(key, taken);
      if (!rate.refused) return rate;
      const extra = burst.consume(key, taken);
      return {
        remainingPoints: rate.remainingPoints,
        msBeforeNext: Math.min(rate.msBeforeNext, extra.msBeforeNext),
        refused: extra.refused,
      };
    },
  };
}
