import type { PubSub } from "@google-cloud/pubsub";
import { WEBHOOK_DELIVERY_FUNCTION_NAME } from "@usage-ingestion/cost-worker";
import { DEFAULT_DELIVERIES_TOPIC } from "@usage-ingestion/webhooks";
import { startWorkerProcess } from "./services.ts";
import { type Supervised, type SupervisorOptions, supervise } from "./supervisor.ts";
import { ensureTopology, pushEndpointFor, type TopologyNames } from "./topology.ts";

/** The deliveries topic's names, as infra/modules/worker/webhooks.tf gives them. */
export const webhookTopologyNames = (topic = DEFAULT_DELIVERIES_TOPIC): TopologyNames => ({
  topic,
  deadLetterTopic: `${topic}-dead-letter`,
  subscription: `${topic}-push`,
  deadLetterSubscription: `${topic}-dead-letter-hold`,
});

export interface WebhookDeliveryOptions {
  projectId: string;
  port: number;
  /** The services' environment (emulators, log format), with WEBHOOK_SECRET_KEY. */
  env: Record<string, string>;
  built?: boolean;
  onLine?: (line: string) => void;
  supervision: SupervisorOptions;
}

/**
 * The delivery function `usage-webhooks` on this machine: the worker's code under the functions framework,
 * target deliverWebhooks, pushed by the deliveries topic with production's retry policy and dead-letter
 * topic. The emulator stops pushing a message that keeps failing (docs/local-development.md); the
 * dispatch's sweep, which the local stack runs every few seconds, queues such a delivery again.
 */
export async function startWebhookDelivery(
  pubsub: PubSub,
  options: WebhookDeliveryOptions,
): Promise<{ url: string; names: TopologyNames; process: Supervised }> {
  const names = webhookTopologyNames(options.env.WEBHOOK_DELIVERIES_TOPIC);
  const start = () =>
    startWorkerProcess({
      port: options.port,
      env: options.env,
      built: options.built,
      target: WEBHOOK_DELIVERY_FUNCTION_NAME,
      onLine: options.onLine,
    });
  const process = supervise("webhook delivery", await start(), start, options.supervision);
  const url = `http://127.0.0.1:${options.port}`;
  await ensureTopology(pubsub, names, {
    pushEndpoint: pushEndpointFor(url, options.projectId, names.topic),
    maxDeliveryAttempts: 100,
    minimumBackoffSeconds: 1,
    maximumBackoffSeconds: 10,
  });
  return { url, names, process };
}
