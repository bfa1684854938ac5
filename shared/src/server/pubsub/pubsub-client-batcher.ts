import type { PubSub } from "@google-cloud/pubsub";
import { withTimeout } from "../../timeout.ts";
import type { OutgoingMessage } from "./publish-wire.ts";
import {
  type BatcherOptions,
  type PublishBatcher,
  type PublishOutcome,
  PublishTimeoutError,
} from "./pubsub-batcher.ts";

/** Pub/Sub's own limits on one publish call, as our own batcher keeps them. */
const MAX_MESSAGES_PER_CALL = 1000;
const MAX_BYTES_PER_CALL = 9 * 1024 * 1024;

const bytesOf = (data: OutgoingMessage["data"]) =>
  typeof data === "string" ? Buffer.from(data, "utf8") : Buffer.concat(data as Uint8Array[]);

/**
 * The same publishing through @google-cloud/pubsub's own publisher (PUBSUB_PUBLISH_TRANSPORT=client), the
 * fallback to our own Publish call: its batching within `batchMaxMs` and its retries, each message
 * confirmed with the id Pub/Sub returned, only once Pub/Sub returned it. Every request is bounded by
 * `timeoutMs` as our own batcher bounds it: what is not confirmed by then fails with PublishTimeoutError.
 */
export function pubSubClientBatcher(pubsub: PubSub, options: BatcherOptions): PublishBatcher {
  const topic = pubsub.topic(options.topic, {
    batching: {
      maxMessages: MAX_MESSAGES_PER_CALL,
      maxBytes: MAX_BYTES_PER_CALL,
      maxMilliseconds: options.batchMaxMs,
    },
    // The client's own retries stop where the request's time does.
    gaxOpts: { timeout: options.timeoutMs },
  });
  const inFlight = new Set<Promise<unknown>>();
  const flush = async () => {
    await topic.flush().catch(() => undefined);
    await Promise.allSettled([...inFlight]);
  };
  return {
    async publish(messages) {
      if (messages.length === 0) return [];
      const deadline = Date.now() + options.timeoutMs;
      const sent = messages.map((message) => {
        const id = topic.publishMessage({ data: bytesOf(message.data), attributes: { ...message.attributes } });
        inFlight.add(id);
        id.then(
          () => inFlight.delete(id),
          () => inFlight.delete(id),
        );
        return id;
      });
      const timedOut = () => new PublishTimeoutError(`publish took longer than ${options.timeoutMs} ms`);
      return Promise.all(
        sent.map((id) =>
          withTimeout(id, Math.max(0, deadline - Date.now()), timedOut).then(
            (confirmed): PublishOutcome => ({ id: confirmed }),
            (error: unknown): PublishOutcome => ({ error }),
          ),
        ),
      );
    },
    flush,
    close: flush,
  };
}
