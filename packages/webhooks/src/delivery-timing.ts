/**
 * How long deliveries are retried, and when the sweep steps in (docs/webhooks.md, "Retries", has the
 * arithmetic). Pub/Sub retries a failed push with exponential backoff from 10 s to 600 s and dead-letters
 * after 100 attempts, about 15.7 hours; the sweep queues a delivery again once nothing touched it for
 * `sweepAfterMs`, until `retryWindowMs` has passed since it was made, and then marks it failed.
 */
export interface DeliveryTiming {
  /** Bound on one POST, answer included. */
  timeoutMs: number;
  /** A pending delivery untouched this long is queued again; longer than Pub/Sub's maximum backoff plus a POST. */
  sweepAfterMs: number;
  /** Retries run this long from the delivery's creation (or its replay); at least a day. */
  retryWindowMs: number;
}

export const DAY_MS = 86_400_000;

export const DEFAULT_DELIVERY_TIMING: DeliveryTiming = {
  timeoutMs: 10_000,
  sweepAfterMs: 15 * 60_000,
  retryWindowMs: DAY_MS,
};

/** An attempt holds its delivery this long: its POST's bound and room for its two Firestore writes. */
export const leaseMs = (timing: DeliveryTiming) => timing.timeoutMs + 10_000;

/** Events dispatched, and deliveries swept, in one run at most (the rest in the next run). */
export const DISPATCH_BATCH = 100;
export const SWEEP_BATCH = 200;
