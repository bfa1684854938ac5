import { type PubSub, v1 } from "@google-cloud/pubsub";

/** Pub/Sub's own limits on one publish call. */
const MAX_MESSAGES_PER_CALL = 1000;
const MAX_BYTES_PER_CALL = 9 * 1024 * 1024;
/** A message's share of the request beyond its data and attributes (field tags, lengths). */
const MESSAGE_OVERHEAD_BYTES = 16;

export interface OutgoingMessage {
  data: Buffer;
  attributes: Record<string, string>;
}

interface Pending {
  message: OutgoingMessage;
  bytes: number;
  resolve(id: string): void;
  reject(error: unknown): void;
}

export interface BatcherOptions {
  topic: string;
  /** Per call, the whole retry budget included (gax reads `timeout` as both). */
  timeoutMs: number;
  /** How long a message may wait for others to share its call; a request's messages always share one. */
  batchMaxMs: number;
}

/**
 * Publishes through the generated client, one `Publish` call per batch: a request's messages are added in
 * the same turn of the event loop, so they leave in one call (a call's size limits permitting) and share
 * its outcome. Each message resolves with the id Pub/Sub returned for it, or fails with its call. The
 * client is the one `PubSub` itself would create and close (`pubsub.api`), so `pubsub.close()` still ends it.
 */
export function pubSubBatcher(pubsub: PubSub, options: BatcherOptions) {
  let pending: Pending[] = [];
  let pendingBytes = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const inFlight = new Set<Promise<void>>();
  let connected: Promise<{ client: v1.PublisherClient; topic: string }> | undefined;

  const connect = () => {
    connected ??= (async () => {
      const config = await pubsub.getClientConfig();
      const api = pubsub.api as Record<string, unknown>;
      api.PublisherClient ??= new v1.PublisherClient(config as ConstructorParameters<typeof v1.PublisherClient>[0]);
      const client = api.PublisherClient as v1.PublisherClient;
      const topic = options.topic.startsWith("projects/")
        ? options.topic
        : `projects/${pubsub.projectId}/topics/${options.topic}`;
      return { client, topic };
    })().catch((error: unknown) => {
      connected = undefined;
      throw error;
    });
    return connected;
  };

  const call = async (batch: Pending[]) => {
    try {
      const { client, topic } = await connect();
      const [response] = await client.publish(
        { topic, messages: batch.map((item) => item.message) },
        // gax would otherwise bundle publish calls itself, holding them for its own delay.
        { timeout: options.timeoutMs, isBundling: false },
      );
      const ids = response.messageIds ?? [];
      batch.forEach((item, index) => {
        const id = ids[index];
        if (id) item.resolve(id);
        else item.reject(new Error("Pub/Sub confirmed the call without an id for this message"));
      });
    } catch (error) {
      for (const item of batch) item.reject(error);
    }
  };

  const send = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const batch = pending;
    pending = [];
    pendingBytes = 0;
    if (batch.length === 0) return;
    const sent = call(batch).finally(() => inFlight.delete(sent));
    inFlight.add(sent);
  };

  return {
    publish(message: OutgoingMessage): Promise<string> {
      let bytes = message.data.length + MESSAGE_OVERHEAD_BYTES;
      for (const key in message.attributes) bytes += key.length + (message.attributes[key]?.length ?? 0) + 4;
      if (pending.length >= MAX_MESSAGES_PER_CALL || pendingBytes + bytes > MAX_BYTES_PER_CALL) send();
      return new Promise<string>((resolve, reject) => {
        pending.push({ message, bytes, resolve, reject });
        pendingBytes += bytes;
        if (options.batchMaxMs <= 0) {
          if (pending.length === 1) queueMicrotask(send);
        } else {
          timer ??= setTimeout(send, options.batchMaxMs);
        }
      });
    },
    /** Sends what is waiting and resolves once every call made so far has settled. */
    async flush(): Promise<void> {
      send();
      await Promise.allSettled([...inFlight]);
    },
  };
}
