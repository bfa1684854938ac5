import type { PubSub } from "@google-cloud/pubsub";
import { type QueueMessage, queueMessageAttributes } from "@usage-ingestion/shared";
import {
  type OutgoingMessage,
  type PublishOutcome,
  publishBatcher,
  type Transport,
} from "@usage-ingestion/shared/server";
import { queueMessageData } from "./queue-message-json.ts";

// (re-exports moved)

/** Queues a request's messages and says, for each, the id Pub/Sub confirmed or why there is none. */
export interface Publisher {
  /**
   * One Pub/Sub message per queue message, in order; `attributes` are added to each message's own (the
   * trace, see traceAttributes). `transactionTexts`, where it holds one, is a message's transaction as
   * JSON text (as the request body held it), sent as it is rather than serialised again. Resolves with
   * one outcome per message; never rejects.
   */
  publish(
    messages: readonly QueueMessage[],
    attributes?: Record<string, string>,
    transactionTexts?: ReadonlyArray<Uint8Array | undefined>,
  ): Promise<PublishOutcome[]>;
  /** Sends whatever is still batched, waits for it, then closes the connection to Pub/Sub; at shutdown. */
  close(): Promise<void>;
}

export interface PubSubPublisherOptions {
  topic: string;
  /** `wire`: our own Publish call (the default); `client`: the Pub/Sub client's (PUBSUB_PUBLISH_TRANSPORT). */
  transport?: Transport;
  /** The most a request waits for its messages to be confirmed, retries included. */
  timeoutMs: number;
  /** How long a message may wait for others to share its publish call. */
  batchMaxMs?: number;
}

/**
 * One batcher per process, tuned for latency: a request's transactions leave in one publish call within
 * `batchMaxMs` (5 ms by default), sharing it with other requests' that arrive meanwhile. Bounded by
 * `timeoutMs` per request: past it, what is not confirmed counts as not queued, and retries stop there.
 */
export function pubSubPublisher(pubsub: PubSub, options: PubSubPublisherOptions): Publisher {
  const batcherOptions = { topic: options.topic, timeoutMs: options.timeoutMs, batchMaxMs: options.batchMaxMs ?? 5 };
  const batcher = publishBatcher(options.transport ?? "wire", pubsub, batcherOptions);
  return {
    publish: (messages, attributes, transactionTexts) => {
      // A request's messages share one organization, so one attributes object (and one encoding).
      let shared: OutgoingMessage["attributes"] | undefined;
      let sharedFor: string | undefined;
      const data = queueMessageData(messages, transactionTexts);
      const outgoing = messages.map((message, index): OutgoingMessage => {
        if (shared === undefined || sharedFor !== message.organization_id) {
          shared = { ...attributes, ...queueMessageAttributes(message) };
          sharedFor = message.organization_id;
        }
        return { data: data[index] as OutgoingMessage["data"], attributes: shared };
      });
      return batcher.publish(outgoing);
    },
    close: () => batcher.close(),
  };
}
