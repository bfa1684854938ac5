import { createLogger, optionalStringVar, parseConfig } from "@usage-ingestion/shared/server";
import {
  AttemptFailed,
  deliverWebhook,
  localReceiversAllowed,
  parseDeliveryMessage,
  parseSecretKey,
  type SecretBox,
  secretBox,
} from "@usage-ingestion/webhooks";
import * as v from "valibot";
import { COMMON_ENV } from "./common-env.ts";
import { firestoreClient } from "./firestore-client.ts";
import type { PushJob } from "./job.ts";
import { deliveryTiming, WEBHOOK_ENV } from "./webhook-env.ts";

export const DELIVER_WEBHOOKS_ENV = {
  ...COMMON_ENV,
  ...WEBHOOK_ENV,
  /** The key that seals webhook secrets (Secret Manager): given to this function only. */
  WEBHOOK_SECRET_KEY: optionalStringVar(),
};
const DeliverWebhooksEnvSchema = v.object(DELIVER_WEBHOOKS_ENV);
type DeliverWebhooksConfig = v.InferOutput<typeof DeliverWebhooksEnvSchema> & { receivers: "public" | "any" };

/**
 * One push per delivery from the deliveries topic: POSTs it, signed. The key is checked at start-up when
 * it is set (a malformed one stops the process); without one each push fails, saying which variable is
 * missing. Receivers must be on public addresses but on the local stack, where they listen on this machine.
 */
export const deliverWebhooks: PushJob<DeliverWebhooksConfig> = {
  name: "deliverWebhooks",
  trigger: "push",
  config(env) {
    const config = parseConfig(DeliverWebhooksEnvSchema, env);
    if (config.WEBHOOK_SECRET_KEY !== undefined) parseSecretKey(config.WEBHOOK_SECRET_KEY);
    return { ...config, receivers: localReceiversAllowed(env) ? "any" : "public" };
  },
  start(config) {
    const box: SecretBox | undefined =
      config.WEBHOOK_SECRET_KEY === undefined ? undefined : secretBox(parseSecretKey(config.WEBHOOK_SECRET_KEY));
    const db = firestoreClient(config.GOOGLE_CLOUD_PROJECT);
    const logger = createLogger(config.LOG_FORMAT, config.GOOGLE_CLOUD_PROJECT);
    const timing = deliveryTiming(config);
    return {
      async run(event) {
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
          const outcome = await deliverWebhook({ db, box, timing, receivers: config.receivers }, ref);
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
            { organization_id: ref.organizationId, webhook_id: ref.webhookId, event_id: ref.eventId, error },
          );
          throw error;
        }
      },
      close: () => db.terminate(),
    };
  },
};
