import type { PubSub, Topic } from "@google-cloud/pubsub";
import { type QueueMessage, queueMessageAttributes, withTimeout } from "@usage-ingestion/shared";

/** Queues one message and resolves with the id Pub/Sub confirmed. */
export interface Publisher {
  /** `attributes` are added to the message's own (the trace, see traceAttributes). */
  publish(message: QueueMessage, attributes?: Record<string, string>): Promise<string>;
  /** Sends whatever is still batched; used at shutdown. */
  flush(): Promise<void>;
}

export interface PubSubPublisherOptions {
  topic: string;
  timeoutMs: number;
  /** How long a message may wait for others to share its publish call. */
  batchMaxMs?: number;
}

/**
 * One topic object per process. Batching is tuned for latency: a request's transactions leave in one
 * batch within 5 ms. The library's own retries stop at the publish bound, so a publish that we report
 * as failed is not still being retried behind our back for long.
 */
export function pubSubPublisher(pubsub: PubSub, options: PubSubPublisherOptions): Publisher {
  const topic: Topic = pubsub.topic(options.topic, {
    batching: { maxMessages: 1000, maxMilliseconds: options.batchMaxMs ?? 5, maxBytes: 9 * 1024 * 1024 },
    // gax turns `timeout` into the total retry budget as well, not only the per-attempt deadline.
    gaxOpts: { timeout: options.timeoutMs },
  });
  return {
    publish: (message, attributes) =>
      topic.publishMessage({
        data: Buffer.from(JSON.stringify(message)),
        attributes: { ...attributes, ...queueMessageAttributes(message) },
      }),
    flush: () => topic.flush(),
  };
}

export class PublishTimeoutError extends Error {
  override name = "PublishTimeoutError";
}

/** No request waits on Pub/Sub longer than `timeoutMs`; past that, the transaction counts as not queued. */
export function boundedPublisher(publisher: Publisher, timeoutMs: number): Publisher {
  return {
    publish: (message, attributes) =>
      withTimeout(
        publisher.publish(message, attributes),
        timeoutMs,
        () => new PublishTimeoutError(`publish took longer than ${timeoutMs} ms`),
      ),
    flush: () => publisher.flush(),
  };
}
