import type { PubSub } from "@google-cloud/pubsub";
import pubsubPackage from "@google-cloud/pubsub/package.json" with { type: "json" };
import { apiClientHeader } from "../grpc/api-client-header.ts";
import { type GrpcChannel, type GrpcChannelOptions, grpcChannel } from "../grpc/grpc-channel.ts";
import { FRAME_HEADER_BYTES, GrpcStatus } from "../grpc/grpc-status.ts";
import { retryDelays } from "../grpc/retry-delays.ts";
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
/** The Pub/Sub client's x-goog-api-client, as its generated client sends it with each call. */
const CLIENT = apiClientHeader(`gccl/${pubsubPackage.version}`);
/** The codes and backoff the generated client retries `Publish` on (publisher_client_config.json). */
const RETRIED = new Set<number>([
  GrpcStatus.CANCELLED,
  GrpcStatus.UNKNOWN,
  GrpcStatus.DEADLINE_EXCEEDED,
  GrpcStatus.RESOURCE_EXHAUSTED,
  GrpcStatus.ABORTED,
  GrpcStatus.INTERNAL,
  GrpcStatus.UNAVAILABLE,
]);
const BACKOFF = { initialDelayMs: 100, multiplier: 4, maxDelayMs: 60_000 };

/** What became of one message: the id Pub/Sub confirmed, or why there is none. */
export type PublishOutcome = { id: string } | { error: unknown };

export class PublishTimeoutError extends Error {
  override name = "PublishTimeoutError";
}
const timeoutError = (timeoutMs: number) => new PublishTimeoutError(`publish took longer than ${timeoutMs} ms`);

export interface BatcherOptions {
  topic: string;
  /** How long a request's messages may take, from being handed over to being confirmed, retries included. */
  timeoutMs: number;
  /** How long a message may wait for others to share its call; a request's messages always share one. */
  batchMaxMs: number;
  /** Channel settings beyond where PubSub points it (timeouts, or a socket of the canary's own). */
  channel?: Omit<GrpcChannelOptions, "origin" | "callHeaders">;
}

/**
 * Publishes requests' messages in batches; our own (pubSubBatcher) or the Pub/Sub client's
 * (pubSubClientBatcher), one setting apart (publishBatcher). A request is what one caller hands over at
 * once: a gateway request's transactions, or one stored record of the worker's records feed.
 */
export interface PublishBatcher {
  /** Resolves once every message is confirmed or failed, or the request's time is up; never rejects. */
  publish(messages: readonly OutgoingMessage[]): Promise<PublishOutcome[]>;
  /** Sends what is waiting and resolves once every call made so far has settled. */
  flush(): Promise<void>;
  /** Flushes, then closes what this batcher opened. */
  close(): Promise<void>;
}

/** One request's messages: their outcomes fill in as calls settle; the request is answered when all are in. */
interface RequestSlot {
  outcomes: Array<PublishOutcome | undefined>;
  open: number;
  done: boolean;
  /** When its time runs out (a Date.now() time): no call for its messages outlives it. */
  deadline: number;
  timer: ReturnType<typeof setTimeout> | undefined;
  resolve(outcomes: PublishOutcome[]): void;
}

interface Pending extends SizedMessage {
  slot: RequestSlot;
  index: number;
}

/**
 * Publishes a request's messages together, one `Publish` call per batch: messages handed over within
 * `batchMaxMs` of each other share a call (a call's limits permitting), and each message is confirmed
 * with the id Pub/Sub returned for it, or fails with its call. The call goes to the endpoint `PubSub`
 * resolved, with its credentials, over one HTTP/2 connection of our own (shared/src/server/grpc/grpc-channel.ts), with the
 * request encoded straight to the wire (publish-wire.ts), and is retried as the generated client would
 * retry it. `close` ends that connection.
 *
 * Every request is bounded by `timeoutMs`: when it runs out, the messages already confirmed keep their ids
 * and the rest fail with PublishTimeoutError, even if a call is still under way.
 */
export function pubSubBatcher(pubsub: PubSub, options: BatcherOptions): PublishBatcher {
  const sizer = new MessageSizer();
  let pending: Pending[] = [];
  let pendingBytes = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const inFlight = new Set<Promise<void>>();
  let connected: Promise<{ channel: GrpcChannel; topic: string; headers: Record<string, string> }> | undefined;

  const connect = () => {
    connected ??= (async () => {
      // The project (looked up when not given) and the endpoint, as PubSub resolved them.
      const config = await pubsub.getClientConfig();
      const topic = options.topic.startsWith("projects/")
        ? options.topic
        : `projects/${pubsub.projectId}/topics/${options.topic}`;
      const channel = grpcChannel({ ...options.channel, ...publisherChannelOptions(pubsub, config) });
      // The routing and client headers the generated client sends with every Publish.
      const headers = {
        "x-goog-request-params": `topic=${encodeURIComponent(topic)}`,
        ...CLIENT,
      };
      return { channel, topic, headers };
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

  const call = async (batch: Pending[]) => {
    // The earliest request's time, which the batch's first message belongs to: a call still under way
    // when its requests have been answered could publish what they were told was not queued.
    const deadline = (batch[0] as Pending).slot.deadline;
    try {
      const { channel, topic, headers } = await connect();
      const frame = encodePublishRequest(topic, batch, FRAME_HEADER_BYTES);
      // The data is in the frame now: let the strings go while Pub/Sub answers.
      for (const item of batch) item.data = "";
      const delays = retryDelays(BACKOFF);
      let ids: string[];
      for (;;) {
        try {
          ids = decodeMessageIds(await channel.unary(PUBLISH_METHOD, frame, headers, deadline));
          break;
        } catch (error) {
          const code = (error as { code?: number }).code;
          if (code === undefined || !RETRIED.has(code)) throw error;
          const delay = delays(error);
          if (Date.now() + delay >= deadline) throw error;
          await new Promise((resolve) => setTimeout(resolve, delay));
        }
      }
      batch.forEach((item, index) => {
        const id = ids[index];
        settle(item.slot, item.index, id ? { id } : { error: new Error("Pub/Sub confirmed the call without an id") });
      });
    } catch (error) {
      // The call ran out of the earliest request's time: those requests time out, as their own bound says.
      const late = (error as { code?: number }).code === GrpcStatus.DEADLINE_EXCEEDED;
      for (const item of batch) {
        const timedOut = late && item.slot.deadline <= deadline;
        settle(item.slot, item.index, { error: timedOut ? timeoutError(options.timeoutMs) : error });
      }
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

  /** Sends what is waiting and resolves once every call made so far has settled. */
  const flush = async (): Promise<void> => {
    send();
    await Promise.allSettled([...inFlight]);
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
          deadline: Date.now() + options.timeoutMs,
          timer: undefined,
          resolve,
        };
        slot.timer = setTimeout(() => {
          for (let index = 0; index < slot.outcomes.length; index++) {
            slot.outcomes[index] ??= {
              error: timeoutError(options.timeoutMs),
            };
          }
          finish(slot);
        }, options.timeoutMs);
        for (let index = 0; index < messages.length; index++) {
          const sized = sizer.size(messages[index] as OutgoingMessage);
          const item: Pending = {
            data: sized.data,
            dataBytes: sized.dataBytes,
            attributes: sized.attributes,
            bytes: sized.bytes,
            slot,
            index,
          };
          const share = requestShare(item);
          if (pending.length >= MAX_MESSAGES_PER_CALL || pendingBytes + share > MAX_BYTES_PER_CALL) send();
          pending.push(item);
          pendingBytes += share;
        }
        if (options.batchMaxMs <= 0) queueMicrotask(send);
        else timer ??= setTimeout(send, options.batchMaxMs);
      });
    },
    flush,
    /** Flushes, then closes the connection to Pub/Sub. */
    async close(): Promise<void> {
      await flush();
      const opened = await connected?.catch(() => undefined);
      await opened?.channel.close();
    },
  };
}

/**
 * Where PubSub itself would send the call: the emulator in plaintext (PUBSUB_EMULATOR_HOST, or an
 * endpoint PubSub took for one), anything else over TLS with PubSub's own credentials. Without an
 * endpoint, the universe domain is its option's, else GOOGLE_CLOUD_UNIVERSE_DOMAIN, as its generated
 * client reads them (each service parses the variable at start-up and gives it to PubSub).
 */
export function publisherChannelOptions(
  pubsub: PubSub,
  config: { servicePath?: string; port?: number | string; universeDomain?: string; universe_domain?: string },
) {
  const universe =
    config.universeDomain ?? config.universe_domain ?? process.env.GOOGLE_CLOUD_UNIVERSE_DOMAIN ?? "googleapis.com";
  const host = config.servicePath ?? `pubsub.${universe}`;
  if (pubsub.isEmulator) return { origin: `http://${host}:${config.port ?? 80}` };
  return {
    origin: `https://${host}:${config.port ?? 443}`,
    callHeaders: async () => Object.fromEntries(await pubsub.auth.getRequestHeaders()),
  };
}
