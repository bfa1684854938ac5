import type { StatusDetails } from "./grpc-status-details.ts";

/** A generated client's retry backoff for one method (its `retry_params` in the client config). */
export interface Backoff {
  initialDelayMs: number;
  multiplier: number;
  maxDelayMs: number;
}

/**
 * The waits before each retry of one call, drawn as google-gax's `retries.js` draws them: full jitter, a
 * wait uniform in [0, cap) with the cap growing by the multiplier up to its maximum, so that callers
 * failing together do not retry in lockstep. A server's RetryInfo (decoded into the error) is honoured:
 * the wait is at least the delay it asks for.
 */
export function retryDelays(backoff: Backoff, random: () => number = Math.random): (error: unknown) => number {
  let cap = backoff.initialDelayMs;
  return (error) => {
    const wait = random() * cap;
    cap = Math.min(cap * backoff.multiplier, backoff.maxDelayMs);
    const asked = (error as StatusDetails | undefined)?.retryDelayMs;
    return asked === undefined ? wait : Math.max(wait, asked);
  };
}
