import type { PubSub } from "@google-cloud/pubsub";
import type { Transport } from "../config.ts";
import { type BatcherOptions, type PublishBatcher, pubSubBatcher } from "./pubsub-batcher.ts";
import { pubSubClientBatcher } from "./pubsub-client-batcher.ts";

/**
 * The batcher a service publishes through, by PUBSUB_PUBLISH_TRANSPORT: `wire`, our own `Publish` call on
 * HTTP/2 (docs/decisions/0001); `client`, @google-cloud/pubsub's publisher, the fallback
 * (docs/decisions/0016). Both confirm a message only once Pub/Sub has, and bound each request alike.
 */
export const publishBatcher = (transport: Transport, pubsub: PubSub, options: BatcherOptions): PublishBatcher =>
  transport === "client" ? pubSubClientBatcher(pubsub, options) : pubSubBatcher(pubsub, options);
