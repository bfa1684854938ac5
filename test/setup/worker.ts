import { randomUUID } from "node:crypto";
import { Firestore } from "@google-cloud/firestore";
import { firestoreDimensionsStore } from "@usage-ingestion/organizations";
import { firestoreCustomPricingStore } from "@usage-ingestion/prices";
import type { WorkerDeps } from "@usage-ingestion/records";
import { firestoreRecordStore, pubSubRecordsFeed, RECORDS_TOPIC, type RecordsFeed } from "@usage-ingestion/records";
import { QUEUE_SCHEMA_VERSION, type QueueMessage, type Transaction } from "@usage-ingestion/shared";
import type { PubSubEvent, Transport } from "@usage-ingestion/shared/server";
import { type Commits, commitsOn, firestoreCommitsOptions } from "@usage-ingestion/shared/server";
import { memoryLogger } from "./gateway.ts";
import { firestore, freeClosedPort, pubsub } from "./harness.ts";

const channels = new Map<string, Commits>();

/**
 * The worker's commits to the Firestore emulator, as its composition root makes them on `transport`
 * (FIRESTORE_COMMIT_TRANSPORT); one per transport and time-out.
 */
export function emulatorCommits(timeoutMs = 10_000, transport: Transport = "wire"): Commits {
  const key = `${transport} ${timeoutMs}`;
  let commits = channels.get(key);
  if (!commits) {
    commits = commitsOn(
      transport,
      firestore(),
      () =>
        firestoreCommitsOptions({
          emulatorHost: process.env.FIRESTORE_EMULATOR_HOST,
          projectId: process.env.GOOGLE_CLOUD_PROJECT,
          databaseId: "(default)",
          timeoutMs,
        }),
      timeoutMs,
    );
    channels.set(key, commits);
  }
  return commits;
}

/**
 * The worker's real adapters on the Firestore emulator, with a logger the test can read. Organization
 * settings are read afresh by default (tests change them); pass a cache time to run as deployed.
 */
export function workerDeps(
  db: Firestore = firestore(),
  timeoutMs = 10_000,
  settingsTtlMs = 0,
  commits: Commits = emulatorCommits(timeoutMs),
  feed: RecordsFeed = recordsFeed(),
): WorkerDeps & { logger: ReturnType<typeof memoryLogger> } {
  return {
    records: firestoreRecordStore(db, commits, timeoutMs),
    customPricing: firestoreCustomPricingStore(db, settingsTtlMs, timeoutMs),
    dimensions: firestoreDimensionsStore(db, settingsTtlMs, timeoutMs),
    feed,
    logger: memoryLogger(),
  };
}

/**
 * The worker's records feed on the Pub/Sub emulator, on `transport` (PUBSUB_PUBLISH_TRANSPORT): to the
 * records topic (global setup makes it), or `topic`.
 */
export const recordsFeed = (topic = RECORDS_TOPIC, timeoutMs = 10_000, transport: Transport = "wire") =>
  pubSubRecordsFeed(pubsub(), { topic, timeoutMs, transport });

/**
 * A Firestore client whose server is down: the emulator variable is pointed at a closed port while building.
 * Leave it to give up on its own: terminated while the SDK still retries a read, the SDK rejects a promise
 * of its own that nobody holds (`requestStream` runs `void this._clientPool.run(...)`), an unhandled
 * rejection that fails the whole test run.
 */
export async function unreachableFirestore(): Promise<Firestore> {
  const port = await freeClosedPort();
  const emulatorHost = process.env.FIRESTORE_EMULATOR_HOST;
  process.env.FIRESTORE_EMULATOR_HOST = `127.0.0.1:${port}`;
  try {
    return new Firestore({ projectId: process.env.GOOGLE_CLOUD_PROJECT });
  } finally {
    process.env.FIRESTORE_EMULATOR_HOST = emulatorHost;
  }
}

export function envelope(organizationId: string, transaction: Record<string, unknown>, index = 0): QueueMessage {
  return {
    schema_version: QUEUE_SCHEMA_VERSION,
    organization_id: organizationId,
    request_id: randomUUID(),
    transaction_index: index,
    received_at: "2025-11-01T12:00:00.000Z",
    transaction: transaction as Transaction,
  };
}

/** What the functions framework hands the handler for a Pub/Sub push. */
export function pushEvent(data: unknown, messageId = `m-${randomUUID()}`): PubSubEvent {
  const encoded =
    data === undefined
      ? undefined
      : Buffer.from(typeof data === "string" ? data : JSON.stringify(data)).toString("base64");
  return {
    id: messageId,
    data: {
      message: { ...(encoded ? { data: encoded } : {}), messageId, attributes: { schema_version: "1" } },
      subscription: "projects/demo/subscriptions/usage-transactions-cost-worker",
    },
  };
}
