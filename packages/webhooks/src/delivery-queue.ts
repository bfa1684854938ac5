import type { PubSub, Topic } from "@google-cloud/pubsub";
import { withTimeout } from "@usage-ingestion/shared";
import * as v from "valibot";

export const DELIVERY_MESSAGE_VERSION = 1;

/**
 * One Pub/Sub message per delivery attempt series: which delivery to make. The delivery itself (its status,
 * its attempts) lives in Firestore; the message only wakes the delivery function, so a duplicate is harmless.
 */
export const DeliveryMessageSchema = v.object({
  schema_version: v.literal(DELIVERY_MESSAGE_VERSION),
  organization_id: v.pipe(v.string(), v.minLength(1), v.maxLength(256)),
  webhook_id: v.pipe(v.string(), v.minLength(1), v.maxLength(256)),
  event_id: v.pipe(v.string(), v.minLength(1), v.maxLength(1500)),
});
export type DeliveryMessage = v.InferOutput<typeof DeliveryMessageSchema>;

export interface DeliveryRef {
  organizationId: string;
  webhookId: string;
  eventId: string;
}

export const deliveryMessage = (ref: DeliveryRef): DeliveryMessage => ({
  schema_version: DELIVERY_MESSAGE_VERSION,
  organization_id: ref.organizationId,
  webhook_id: ref.webhookId,
  event_id: ref.eventId,
});

/** The delivery a message names, or undefined when it is not one of ours. */
export function parseDeliveryMessage(data: string | undefined): DeliveryRef | undefined {
  if (!data) return undefined;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(data, "base64").toString("utf8"));
  } catch {
    return undefined;
  }
  const parsed = v.safeParse(DeliveryMessageSchema, decoded);
  if (!parsed.success) return undefined;
  const { organization_id, webhook_id, event_id } = parsed.output;
  return { organizationId: organization_id, webhookId: webhook_id, eventId: event_id };
}

/** Puts a delivery on the deliveries topic; resolves once Pub/Sub stored it. */
export interface DeliveryQueue {
  queue(ref: DeliveryRef): Promise<void>;
}

export const DEFAULT_DELIVERIES_TOPIC = "usage-webhook-deliveries";

/** The deliveries topic through the Pub/Sub client, each publish bounded. */
export function pubsubDeliveryQueue(pubsub: PubSub, topicName: string, timeoutMs = 10_000): DeliveryQueue {
  let topic: Topic | undefined;
  return {
    async queue(ref) {
      topic ??= pubsub.topic(topicName);
      const data = Buffer.from(JSON.stringify(deliveryMessage(ref)));
      await withTimeout(
        topic.publishMessage({ data, attributes: { organization_id: ref.organizationId } }),
        timeoutMs,
        () => new Error(`publishing to ${topicName} took more than ${timeoutMs} ms`),
      );
    },
  };
}
