import type { PubSub } from "@google-cloud/pubsub";
import { RECORDS_TOPIC } from "@usage-ingestion/records";

export interface TopologyNames {
  topic: string;
  deadLetterTopic: string;
  /** The worker's push subscription. */
  subscription: string;
  /** A pull subscription on the dead-letter topic, so dead letters are kept to be looked at. */
  deadLetterSubscription: string;
  /**
   * Where the worker publishes every stored record (its RECORDS_TOPIC); BigQuery reads it on Google Cloud.
   * Absent for a topology whose subscriber stores no records (webhook deliveries).
   */
  recordsTopic?: string;
}

export const defaultTopologyNames = (topic = "usage-transactions", recordsTopic = RECORDS_TOPIC): TopologyNames => ({
  topic,
  deadLetterTopic: `${topic}-dead-letter`,
  subscription: `${topic}-cost-worker`,
  deadLetterSubscription: `${topic}-dead-letter-hold`,
  recordsTopic,
});

/** Where the emulator pushes: the topic path in the URL makes the CloudEvent's source name the topic. */
export const pushEndpointFor = (workerBaseUrl: string, projectId: string, topic: string) =>
  `${workerBaseUrl}/projects/${projectId}/topics/${topic}`;

const ALREADY_EXISTS = 6;
async function ignoreExisting<T>(create: () => Promise<T>): Promise<void> {
  try {
    await create();
  } catch (error) {
    if ((error as { code?: number }).code !== ALREADY_EXISTS) throw error;
  }
}

/**
 * The records topic the worker publishes to. Locally nothing subscribes (there is no BigQuery emulator): the
 * emulator accepts and drops what is published, but the worker needs the topic to exist.
 */
export const ensureRecordsTopic = (pubsub: PubSub, topic: string = RECORDS_TOPIC) =>
  ignoreExisting(() => pubsub.createTopic(topic));

/**
 * The same topology Terraform provisions: topic, dead-letter topic, the worker's push subscription with
 * a retry policy (backoff) and a dead-letter policy after 5 delivery attempts, and the records topic where one is named.
 * Idempotent.
 */
export async function ensureTopology(
  pubsub: PubSub,
  names: TopologyNames,
  options: {
    pushEndpoint: string;
    maxDeliveryAttempts?: number;
    minimumBackoffSeconds?: number;
    maximumBackoffSeconds?: number;
  },
): Promise<void> {
  await ignoreExisting(() => pubsub.createTopic(names.topic));
  if (names.recordsTopic) await ensureRecordsTopic(pubsub, names.recordsTopic);
  await ignoreExisting(() => pubsub.createTopic(names.deadLetterTopic));
  await ignoreExisting(() => pubsub.topic(names.deadLetterTopic).createSubscription(names.deadLetterSubscription));
  const subscriptionOptions = {
    pushConfig: { pushEndpoint: options.pushEndpoint },
    ackDeadlineSeconds: 60,
    retryPolicy: {
      minimumBackoff: { seconds: options.minimumBackoffSeconds ?? 1 },
      maximumBackoff: { seconds: options.maximumBackoffSeconds ?? 60 },
    },
    deadLetterPolicy: {
      deadLetterTopic: pubsub.topic(names.deadLetterTopic).name,
      maxDeliveryAttempts: options.maxDeliveryAttempts ?? 5,
    },
  };
  const subscription = pubsub.subscription(names.subscription);
  const [exists] = await subscription.exists();
  if (exists) {
    await subscription.modifyPushConfig({ pushEndpoint: options.pushEndpoint });
  } else {
    await pubsub.topic(names.topic).createSubscription(names.subscription, subscriptionOptions);
  }
}
