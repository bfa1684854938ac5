import type { PubSub } from "@google-cloud/pubsub";
import { type QueueMessage, queueMessageAttributes } from "@usage-ingestion/shared";
import { pubSubBatcher } from "./pubsub-batcher.ts";

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
 * One batcher per process, tuned for latency: a request's transactions leave in one publish call within
 * `batchMaxMs` (5 ms by default), sharing it with other requests' that arrive meanwhile. The client's own
 * retries stop at the publish bound, so a publish that we report as failed is not still being retried
 * behind our back for long.
 */
export function pubSubPublisher(pubsub: PubSub, options: PubSubPublisherOptions): Publisher {
  const batcher = pubSubBatcher(pubsub, {
    topic: options.topic,
    timeoutMs: options.timeoutMs,
    batchMaxMs: options.batchMaxMs ?? 5,
  });
  return {
    publish: (message, attributes) =>
      batcher.publish({
        data: Buffer.from(JSON.stringify(message)),
        attributes: { ...attributes, ...queueMessageAttributes(message) },
      }),
    flush: () => batcher.flush(),
  };
}

export class PublishTimeoutError extends Error {
  override name = "PublishTimeoutError";
}

interface Deadline {
  expired: Promise<never>;
  timer: ReturnType<typeof setTimeout>;
  /** Publishes of this deadline not settled yet; the timer goes when none is left and the turn is over. */
  open: number;
  closed: boolean;
}

/**
 * No request waits on Pub/Sub longer than `timeoutMs`; past that, the transaction counts as not queued.
 * The publishes made in one turn of the event loop (a request's transactions) share one deadline timer.
 */
export function boundedPublisher(publisher: Publisher, timeoutMs: number): Publisher {
  let current: Deadline | undefined;
  const release = (deadline: Deadline) => {
    if (deadline.closed && deadline.open === 0) clearTimeout(deadline.timer);
  };
  const startDeadline = (): Deadline => {
    let expire: (error: Error) => void = () => {};
    const expired = new Promise<never>((_, reject) => {
      expire = reject;
    });
    expired.catch(() => undefined);
    const timer = setTimeout(
      () => expire(new PublishTimeoutError(`publish took longer than ${timeoutMs} ms`)),
      timeoutMs,
    );
    const deadline: Deadline = { expired, timer, open: 0, closed: false };
    queueMicrotask(() => {
      deadline.closed = true;
      if (current === deadline) current = undefined;
      release(deadline);
    });
    return deadline;
  };
  return {
    publish: (message, attributes) => {
      current ??= startDeadline();
      const deadline = current;
      deadline.open++;
      const published = publisher.publish(message, attributes);
      // A publish that fails after the deadline (a client closed meanwhile) must not surface as unhandled.
      published.catch(() => undefined);
      return Promise.race([published, deadline.expired]).finally(() => {
        deadline.open--;
        release(deadline);
      });
    },
    flush: () => publisher.flush(),
  };
}
