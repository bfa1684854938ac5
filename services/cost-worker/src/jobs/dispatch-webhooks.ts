import { PubSub } from "@google-cloud/pubsub";
import { parseConfig } from "@usage-ingestion/shared/server";
import { dispatchEvents, pubsubDeliveryQueue } from "@usage-ingestion/webhooks";
import * as v from "valibot";
import { COMMON_ENV } from "./common-env.ts";
import { firestoreClient } from "./firestore-client.ts";
import type { TickJob } from "./job.ts";
import { deliveryTiming, WEBHOOK_ENV } from "./webhook-env.ts";

export const DISPATCH_WEBHOOKS_ENV = { ...COMMON_ENV, ...WEBHOOK_ENV };
const DispatchWebhooksEnvSchema = v.object(DISPATCH_WEBHOOKS_ENV);

/**
 * Each tick fans new budget events out into one delivery per webhook, queued on the deliveries topic,
 * and sweeps: a delivery untouched past the sweep time is queued again, one past its retry window failed.
 */
export const dispatchWebhooks: TickJob<v.InferOutput<typeof DispatchWebhooksEnvSchema>> = {
  name: "dispatchWebhooks",
  trigger: "tick",
  config: (env) => parseConfig(DispatchWebhooksEnvSchema, env),
  start(config) {
    const projectId = config.GOOGLE_CLOUD_PROJECT;
    const db = firestoreClient(projectId);
    const pubsub = new PubSub(projectId ? { projectId } : {});
    const queue = pubsubDeliveryQueue(pubsub, config.WEBHOOK_DELIVERIES_TOPIC);
    return {
      async run() {
        const warnings: string[] = [];
        const run = await dispatchEvents({ db, queue, timing: deliveryTiming(config), log: (l) => warnings.push(l) });
        return {
          line: `dispatched ${run.dispatched} events into ${run.deliveries} deliveries`,
          fields: { ...run },
          didWork: run.dispatched > 0 || run.requeued > 0 || run.failed > 0,
          problems: warnings.map((line) => ({ severity: "WARNING" as const, line, fields: {} })),
        };
      },
      async close() {
        await Promise.all([db.terminate(), pubsub.close()]);
      },
    };
  },
};
