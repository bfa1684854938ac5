import { integerVar, stringVar } from "@usage-ingestion/shared/server";
import { DEFAULT_DELIVERIES_TOPIC, type DeliveryTiming } from "@usage-ingestion/webhooks";

/** What both webhook jobs read: the deliveries topic and the timing of attempts and sweeps. */
export const WEBHOOK_ENV = {
  /** The deliveries topic the dispatch and the sweep queue onto. */
  WEBHOOK_DELIVERIES_TOPIC: stringVar(DEFAULT_DELIVERIES_TOPIC),
  /** Bound on one POST to a receiver, its answer included. */
  WEBHOOK_TIMEOUT_MS: integerVar(10_000),
  /** A pending delivery untouched this long is queued again by the sweep (above Pub/Sub's maximum backoff). */
  WEBHOOK_SWEEP_AFTER_MS: integerVar(900_000),
  /** How long a delivery is retried before it is marked failed: at least a day. */
  WEBHOOK_RETRY_WINDOW_MS: integerVar(86_400_000, 86_400_000),
};

export const deliveryTiming = (config: {
  WEBHOOK_TIMEOUT_MS: number;
  WEBHOOK_SWEEP_AFTER_MS: number;
  WEBHOOK_RETRY_WINDOW_MS: number;
}): DeliveryTiming => ({
  timeoutMs: config.WEBHOOK_TIMEOUT_MS,
  sweepAfterMs: config.WEBHOOK_SWEEP_AFTER_MS,
  retryWindowMs: config.WEBHOOK_RETRY_WINDOW_MS,
});
