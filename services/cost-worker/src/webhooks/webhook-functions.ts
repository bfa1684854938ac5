import { Firestore } from "@google-cloud/firestore";
import { PubSub } from "@google-cloud/pubsub";
import type { Logger } from "@usage-ingestion/shared/server";
import type { WorkerConfig } from "../env.ts";
import type { PubSubEvent } from "../handler.ts";
import { AttemptFailed, deliverWebhook } from "./deliver-webhook.ts";
import { type DeliveryQueue, parseDeliveryMessage, pubsubDeliveryQueue } from "./delivery-queue.ts";
import type { DeliveryTiming } from "./delivery-timing.ts";
import { dispatchEvents } from "./dispatch-events.ts";
import type { ReceiverAddresses } from "./post-webhook.ts";
import { parseSecretKey, type SecretBox, secretBox } from "./secret-box.ts";

export const deliveryTiming = (config: WorkerConfig): DeliveryTiming => ({
  timeoutMs: config.WEBHOOK_TIMEOUT_MS,
  sweepAfterMs: config.WEBHOOK_SWEEP_AFTER_MS,
  retryWindowMs: config.WEBHOOK_RETRY_WINDOW_MS,
});

/**
 * The two webhook functions' handlers. The key is checked at start-up when it is set (a malformed one
 * stops the process); the delivery function without one fails each push, saying which variable is missing
 * (the pricing and fold functions have no key and need none). Receivers must be on public addresses but
 * on the local stack (`receivers` = `any`), where they listen on this machine.
 */
export function webhookFunctions(
  config: WorkerConfig,
  secretKey: string | undefined,
  logger: Logger,
  receivers: ReceiverAddresses = "public",
) {
  const box: SecretBox | undefined = secretKey === undefined ? undefined : secretBox(parseSecretKey(secretKey));
  const timing = deliveryTiming(config);
  const projectId = config.GOOGLE_CLOUD_PROJECT;
  let db: Firestore | undefined;
  let queue: DeliveryQueue | undefined;
  const firestore = () => {
    db ??= new Firestore(projectId ? { projectId } : {});
    return db;
  };
  return {
    async deliver(event: PubSubEvent): Promise<void> {
      const message = event.data?.message;
      const ref = parseDeliveryMessage(message?.data);
      if (!ref) {
        // Not ours to deliver, and never will be: acknowledged, so it does not loop.
        logger.log("ERROR", "webhook delivery message is not a delivery; dropped", {
          message_id: message?.messageId ?? message?.message_id,
        });
        return;
      }
      if (!box) throw new Error("WEBHOOK_SECRET_KEY is not set: the delivery function cannot sign");
      try {
        const outcome = await deliverWebhook({ db: firestore(), box, timing, receivers }, ref);
        logger.log(outcome === "failed" ? "WARNING" : "INFO", `webhook delivery ${outcome}`, {
          organization_id: ref.organizationId,
          webhook_id: ref.webhookId,
          event_id: ref.eventId,
          outcome,
        });
      } catch (error) {
        logger.log(
          error instanceof AttemptFailed ? "WARNING" : "ERROR",
          "webhook delivery failed; Pub/Sub retries it",
          {
            organization_id: ref.organizationId,
            webhook_id: ref.webhookId,
            event_id: ref.eventId,
            error,
          },
        );
        throw error;
      }
    },
    async dispatch(): Promise<void> {
      queue ??= pubsubDeliveryQueue(new PubSub(projectId ? { projectId } : {}), config.WEBHOOK_DELIVERIES_TOPIC);
      const run = await dispatchEvents({
        db: firestore(),
        queue,
        timing,
        log: (line) => logger.log("WARNING", line, {}),
      });
      logger.log("INFO", `dispatched ${run.dispatched} events into ${run.deliveries} deliveries`, { ...run });
    },
  };
}
