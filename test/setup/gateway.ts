import { randomBytes } from "node:crypto";
import { firestoreBudgetSource } from "@usage-ingestion/budgets";
import type { RateLimitConfig, ReportSettings } from "@usage-ingestion/gateway";
import { answerParserErrors, createApp, type Publisher, pubSubPublisher } from "@usage-ingestion/gateway";
import { cachedKeyStore, firestoreKeyStore, type KeyStore } from "@usage-ingestion/organizations";
import { firestoreReconciliationReader } from "@usage-ingestion/reconciliation";
import { DEVELOPMENT_PAGE_TOKEN_KEY, firestoreRecordReader } from "@usage-ingestion/records";
import { firestoreReportSource, type ReportSource } from "@usage-ingestion/reports";
import type { QueueMessage } from "@usage-ingestion/shared";
import type { Logger } from "@usage-ingestion/shared/server";
import { type PublishOutcome, PublishTimeoutError } from "@usage-ingestion/shared/server";
import { type DeliveryRef, secretBox } from "@usage-ingestion/webhooks";
import { afterAll, beforeAll } from "vitest";
import { databases, firestore, pubsub, pullableTopic, reportsFirestore, seedOrganization, serve } from "./harness.ts";

/**
 * Stand-in publisher that fails on purpose the messages `fails` picks (asked once per message, in order),
 * and hands the rest to the real one.
 */
export function failingWhere(real: Publisher, fails: (message: QueueMessage) => boolean): Publisher {
  return {
    publish: async (messages, attributes, transactionTexts = []) => {
      const failing = messages.map(fails);
      const confirmed = await real.publish(
        messages.filter((_, index) => !failing[index]),
        attributes,
        transactionTexts.filter((_, index) => !failing[index]),
      );
      let next = 0;
      return messages.map((_, index) =>
        failing[index] ? { error: new Error("simulated Pub/Sub outage") } : (confirmed[next++] as PublishOutcome),
      );
    },
    close: () => real.close(),
  };
}

/**
 * Bounds a stand-in publisher as pubSubPublisher bounds itself, but as a whole: a request that has not
 * settled within `timeoutMs` counts as not queued, every message of it.
 */
function boundedPublisher(publisher: Publisher, timeoutMs: number): Publisher {
  return {
    publish: (messages, attributes, transactionTexts) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const expired = new Promise<PublishOutcome[]>((resolve) => {
        timer = setTimeout(() => {
          const error = new PublishTimeoutError(`publish took longer than ${timeoutMs} ms`);
          resolve(messages.map(() => ({ error })));
        }, timeoutMs);
      });
      const published = publisher
        .publish(messages, attributes, transactionTexts)
        .catch((error: unknown) => messages.map(() => ({ error })));
      return Promise.race([published, expired]).finally(() => clearTimeout(timer));
    },
    close: () => publisher.close(),
  };
}

/** Stand-in publisher that never answers. */
export const hangingPublisher = (onPublish: () => void = () => {}): Publisher => ({
  publish: () => {
    onPublish();
    return new Promise(() => {});
  },
  close: async () => {},
});

/** Responses whose JSON the tests read freely; the assertions are what check its shape. */
// biome-ignore lint/suspicious/noExplicitAny: test bodies are checked by assertions, not types
export type JsonResponse = Omit<Response, "json"> & { json(): Promise<any> };

export interface CapturedLog {
  severity: string;
  message: string;
  fields?: Record<string, unknown>;
}

/** A logger that keeps its lines, so tests can read what would have been logged. */
export function memoryLogger(): Logger & { lines: CapturedLog[]; text(): string } {
  const lines: CapturedLog[] = [];
  return {
    lines,
    log: (severity, message, fields) => lines.push({ severity, message, ...(fields ? { fields } : {}) }),
    text: () => JSON.stringify(lines),
  };
}

/** The gateway as server.ts wires it, on the emulators, served on a free port. */
export async function startTestGateway(options: {
  topicName: string;
  publisher?: Publisher;
  keyStore?: KeyStore;
  keyCacheTtlMs?: number;
  keyLookupTimeoutMs?: number;
  publishTimeoutMs?: number;
  /** The receive time the gateway stamps; absent, the real clock. */
  now?: () => Date;
  /** Absent, the configuration's defaults. */
  rateLimits?: RateLimitConfig;
  /** Absent, the configuration's defaults. */
  reportSettings?: ReportSettings;
  /** Absent, the reports read the Firestore emulator. */
  reportSource?: ReportSource;
  /** The key records' and reports' page tokens are signed with; absent, the development key. */
  pageTokenKey?: string;
}) {
  const logger = memoryLogger();
  const publishTimeoutMs = options.publishTimeoutMs ?? 10_000;
  // The real publisher bounds itself; a stand-in is bounded around it.
  const publisher = options.publisher
    ? boundedPublisher(options.publisher, publishTimeoutMs)
    : pubSubPublisher(pubsub(), { topic: options.topicName, timeoutMs: publishTimeoutMs });
  const keys = cachedKeyStore(options.keyStore ?? firestoreKeyStore(databases()), {
    ttlMs: options.keyCacheTtlMs ?? 10_000,
    maxEntries: 1_000,
    lookupTimeoutMs: options.keyLookupTimeoutMs ?? 5_000,
  });
  // A fresh sealing key per gateway (webhook secrets, vendor credentials).
  const box = secretBox(randomBytes(32));
  const app = createApp({
    keys,
    publisher,
    logger,
    reports: options.reportSource ?? firestoreReportSource(reportsFirestore()),
    budgets: firestoreBudgetSource(reportsFirestore()),
    records: firestoreRecordReader(firestore(), options.pageTokenKey ?? DEVELOPMENT_PAGE_TOKEN_KEY),
    ...(options.pageTokenKey ? { pageTokenKey: options.pageTokenKey } : {}),
    reconciliations: firestoreReconciliationReader(firestore()),
    ...(options.now ? { now: options.now } : {}),
    ...(options.rateLimits ? { rateLimits: options.rateLimits } : {}),
    ...(options.reportSettings ? { reportSettings: options.reportSettings } : {}),
    // The management API on the same emulator databases the harness seeds.
    management: {
      databases: databases(),
      // The sealing key, and a queue that remembers what a replay queued.
      webhooks: { box, queue: { queue: async (ref) => void queuedDeliveries.push(ref) } },
    },
  });
  const served = await serve(app, (server) => answerParserErrors(server, logger));
  const post = (body: unknown, headers: Record<string, string> = {}): Promise<JsonResponse> =>
    fetch(`${served.baseUrl}/usage/transactions`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  return { ...served, logger, post, box };
}

/**
 * A gateway on the emulators that publishes to a topic the tests pull from, and an organization with its
 * keys: started before the file's tests (the fields are set then), closed after them.
 */
/** The deliveries the test gateways' management API queued (replays), in order. */
export const queuedDeliveries: DeliveryRef[] = [];

export function gatewayOnEmulators() {
  const setup = {} as {
    org: Awaited<ReturnType<typeof seedOrganization>>;
    topic: Awaited<ReturnType<typeof pullableTopic>>;
    gateway: Awaited<ReturnType<typeof startTestGateway>>;
  };
  beforeAll(async () => {
    setup.org = await seedOrganization();
    setup.topic = await pullableTopic();
    setup.gateway = await startTestGateway({ topicName: setup.topic.topicName });
  });
  afterAll(() => setup.gateway.close());
  return setup;
}
