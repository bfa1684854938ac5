import { type PubSub, v1 } from "@google-cloud/pubsub";
import { Metadata, status } from "@grpc/grpc-js";
import {
  decodeMessageIds,
  encodePublishRequest,
  MessageSizer,
  type OutgoingMessage,
  requestShare,
  type SizedMessage,
} from "./publish-wire.ts";

/** Pub/Sub's own limits on one publish call (10 MB, 1000 messages), with room for the topic and framing. */
const MAX_MESSAGES_PER_CALL = 1000;
const MAX_BYTES_PER_CALL = 9 * 1024 * 1024;
const PUBLISH_METHOD = "/google.pubsub.v1.Publisher/Publish";
/** The codes and backoff the generated client retries `Publish` on (publisher_client_config.json). */
const RETRIED = new Set<number>([
  status.CANCELLED,
  status.UNKNOWN,
  status.DEADLINE_EXCEEDED,
  status.RESOURCE_EXHAUSTED,
  status.ABORTED,
  status.INTERNAL,
  status.UNAVAILABLE,
]);
const FIRST_RETRY_DELAY_MS = 100;
const RETRY_DELAY_MULTIPLIER = 4;

/** What became of one message: the id Pub/Sub confirmed, or why there is none. */
export type PublishOutcome = { id: string } | { error: unknown };

export class PublishTimeoutError extends Error {
  override name = "PublishTimeoutError";
}

export interface BatcherOptions {
  topic: string;
  /** How long a request's messages may take, from being handed over to being confirmed, retries included. */
  timeoutMs: number;
  /** How long a message may wait for others to share its call; a request's messages always share one. */
  batchMaxMs: number;
}

/** One request's messages: their outcomes fill in as calls settle; the request is answered when all are in. */
interface RequestSlot {
  outcomes: Array<PublishOutcome | undefined>;
  open: number;
  done: boolean;
  timer: ReturnType<typeof setTimeout> | undefined;
  resolve(outcomes: PublishOutcome[]): void;
}

interface Pending extends SizedMessage {
  slot: RequestSlot;
  index: number;
}

/** The grpc-js client the generated PublisherClient calls through, for the one raw unary call. */
interface UnaryClient {
  makeUnaryRequest(
    method: string,
    serialize: (value: Buffer) => Buffer,
    deserialize: (value: Buffer) => string[],
    argument: Buffer,
    metadata: Metadata,
    options: { deadline: number },
    callback: (error: (Error & { code?: number }) | null, value?: string[]) => void,
  ): unknown;
}

/**
 * Publishes a request's messages together, one `Publish` call per batch: messages handed over within
 * `batchMaxMs` of each other share a call (a call's limits permitting), and each message is confirmed
 * with the id Pub/Sub returned for it, or fails with its call. The call is made on the channel of the
 * generated client that `PubSub` itself creates and closes (`pubsub.api`), with the request encoded
 * straight to the wire (see publish-wire.ts), and retried as that client would retry it.
 *
 * Every request is bounded by `timeoutMs`: when it runs out, the messages already confirmed keep their ids
 * and the rest fail with PublishTimeoutError, even if a call is still under way.
 */
export function pubSubBatcher(pubsub: PubSub, options: BatcherOptions) {
  const sizer = new MessageSizer();
  let pending: Pending[] = [];
  let pendingBytes = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const inFlight = new Set<Promise<void>>();
  let connected: Promise<{ stub: UnaryClient; topic: string; metadata: Metadata }> | undefined;

  const connect = () => {
    connected ??= (async () => {
      const config = await pubsub.getClientConfig();
      const api = pubsub.api as Record<string, unknown>;
      api.PublisherClient ??= new v1.PublisherClient(config as ConstructorParameters<typeof v1.PublisherClient>[0]);
      const client = api.PublisherClient as v1.PublisherClient;
      const stub = (await client.initialize()) as unknown as UnaryClient;
      const topic = options.topic.startsWith("projects/")
        ? options.topic
        : `projects/${pubsub.projectId}/topics/${options.topic}`;
      // The routing header the generated client sends with every Publish.
      const metadata = new Metadata();
      metadata.set("x-goog-request-params", `topic=${encodeURIComponent(topic)}`);
      return { stub, topic, metadata };
    })().catch((error: unknown) => {
      connected = undefined;
      throw error;
    });
    return connected;
  };

  const settle = (slot: RequestSlot, index: number, outcome: PublishOutcome) => {
    if (slot.done || slot.outcomes[index] !== undefined) return;
    slot.outcomes[index] = outcome;
    if (--slot.open === 0) finish(slot);
  };
  const finish = (slot: RequestSlot) => {
    slot.done = true;
    if (slot.timer) clearTimeout(slot.timer);
    slot.resolve(slot.outcomes as PublishOutcome[]);
  };

  const attempt = (stub: UnaryClient, request: Buffer, metadata: Metadata, deadline: number) =>
    new Promise<string[]>((resolve, reject) => {
      stub.makeUnaryRequest(
        PUBLISH_METHOD,
        (value) => value,
        decodeMessageIds,
        request,
        metadata,
        { deadline },
        (error, ids) => (error ? reject(error) : resolve(ids ?? [])),
      );
    });

  const call = async (batch: Pending[]) => {
    const deadline = Date.now() + options.timeoutMs;
    try {
      const { stub, topic, metadata } = await connect();
      const request = encodePublishRequest(topic, batch);
      // The data is in the request now: let the strings go while Pub/Sub answers.
      for (const item of batch) item.data = "";
      let delay = FIRST_RETRY_DELAY_MS;
      let ids: string[];
      for (;;) {
        try {
          ids = await attempt(stub, request, metadata, deadline);
          break;
        } catch (error) {
          const code = (error as { code?: number }).code;
          if (code === undefined || !RETRIED.has(code) || Date.now() + delay >= deadline) throw error;
          await new Promise((resolve) => setTimeout(resolve, delay * (0.5 + Math.random() / 2)));
          delay *= RETRY_DELAY_MULTIPLIER;
        }
      }
      batch.forEach((item, index) => {
        const id = ids[index];
        settle(item.slot, item.index, id ? { id } : { error: new Error("Pub/Sub confirmed the call without an id") });
      });
    } catch (error) {
      for (const item of batch) settle(item.slot, item.index, { error });
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
    /** Resolves once every message is confirmed or failed, or the request's time is up; never rejects. */
    publish(messages: readonly OutgoingMessage[]): Promise<PublishOutcome[]> {
      if (messages.length === 0) return Promise.resolve([]);
      return new Promise<PublishOutcome[]>((resolve) => {
        const slot: RequestSlot = {
          outcomes: new Array(messages.length),
          open: messages.length,
          done: false,
          timer: undefined,
          resolve,
        };
        slot.timer = setTimeout(() => {
          for (let index = 0; index < slot.outcomes.length; index++) {
            slot.outcomes[index] ??= {
              error: new PublishTimeoutError(`publish took longer than ${options.timeoutMs} ms`),
            };
          }
          finish(slot);
        }, options.timeoutMs);
        for (let index = 0; index < messages.length; index++) {
          const item: Pending = Object.assign(sizer.size(messages[index] as OutgoingMessage), { slot, index });
          const share = requestShare(item);
          if (pending.length >= MAX_MESSAGES_PER_CALL || pendingBytes + share > MAX_BYTES_PER_CALL) send();
          pending.push(item);
          pendingBytes += share;
        }
        if (options.batchMaxMs <= 0) queueMicrotask(send);
        else timer ??= setTimeout(send, options.batchMaxMs);
      });
    },
    /** Sends what is waiting and resolves once every call made so far has settled. */
    async flush(): Promise<void> {
      send();
      await Promise.allSettled([...inFlight]);
    },
  };
}
