import type { Firestore, QueryDocumentSnapshot } from "@google-cloud/firestore";
import { type PubSub, v1 } from "@google-cloud/pubsub";
import type { RecordsFeed } from "@usage-ingestion/records";
import { COLLECTIONS, type CostRecord, UserError } from "@usage-ingestion/shared";
import type { TopologyNames } from "../lib/topology.ts";

/** Attributes Pub/Sub adds when it dead-letters a message; the original ones are the rest. */
const DEAD_LETTER_ATTRIBUTE = /^CloudPubSubDeadLetter/;
const HOLD_SECONDS = 60;
const PAGE = 100;
const MAX_MESSAGES = 10_000;

/** A pulled message, as the generated client hands it over. */
type PulledMessage = {
  data?: Uint8Array | string | null;
  attributes?: Record<string, string> | null;
  messageId?: string | null;
  publishTime?: { seconds?: number | string | { toString(): string } | null; nanos?: number | null } | null;
};

export interface DeadLetter {
  /** The message id in the hold subscription (Pub/Sub gives a dead-lettered message a new one). */
  id: string;
  ackId: string;
  data: Buffer;
  attributes: Record<string, string>;
  publishTime: string;
  organizationId: string | null;
  attempts: string | null;
  receivedAt: string | null;
  requestId: string | null;
  transactionIndex: number | null;
}

function toDeadLetter(ackId: string, message: PulledMessage): DeadLetter {
  const data = Buffer.from(message.data ?? "");
  const attributes = message.attributes ?? {};
  let envelope: Record<string, unknown> = {};
  try {
    envelope = JSON.parse(data.toString("utf8")) ?? {};
  } catch {
    // Not JSON: shown as it is.
  }
  const text = (value: unknown) => (typeof value === "string" ? value : null);
  const seconds = Number(message.publishTime?.seconds ?? 0);
  return {
    id: message.messageId ?? "",
    ackId,
    data,
    attributes,
    publishTime: new Date(seconds * 1000 + Math.floor((message.publishTime?.nanos ?? 0) / 1e6)).toISOString(),
    organizationId: text(envelope.organization_id) ?? attributes.organization_id ?? null,
    attempts: attributes.CloudPubSubDeadLetterSourceDeliveryCount ?? null,
    receivedAt: text(envelope.received_at),
    requestId: text(envelope.request_id),
    transactionIndex: typeof envelope.transaction_index === "number" ? envelope.transaction_index : null,
  };
}

/**
 * Reads every message in the hold subscription and holds them (60 s) while the caller decides; `release`
 * hands back the ones not acknowledged, so listing loses nothing.
 */
export async function holdDeadLetters(pubsub: PubSub, names: TopologyNames) {
  const subscriber = new v1.SubscriberClient(
    (await pubsub.getClientConfig()) as ConstructorParameters<typeof v1.SubscriberClient>[0],
  );
  const subscription = pubsub.subscription(names.deadLetterSubscription).name;
  const held = new Map<string, DeadLetter>();
  try {
    while (held.size < MAX_MESSAGES) {
      const [response] = await subscriber.pull({ subscription, maxMessages: PAGE, returnImmediately: true });
      const received = response.receivedMessages ?? [];
      if (received.length === 0) break;
      const ackIds = received.map((item) => item.ackId ?? "");
      await subscriber.modifyAckDeadline({ subscription, ackIds, ackDeadlineSeconds: HOLD_SECONDS });
      for (const item of received) {
        const letter = toDeadLetter(item.ackId ?? "", item.message as PulledMessage);
        if (!held.has(letter.id)) held.set(letter.id, letter);
      }
    }
  } catch (error) {
    await subscriber.close();
    if ((error as { code?: number }).code === 5) {
      throw new UserError(`the subscription ${names.deadLetterSubscription} does not exist (is --topic right?)`);
    }
    throw error;
  }
  const letters = [...held.values()].sort((a, b) => a.publishTime.localeCompare(b.publishTime));
  return {
    letters,
    async acknowledge(done: DeadLetter[]) {
      if (done.length > 0) await subscriber.acknowledge({ subscription, ackIds: done.map((l) => l.ackId) });
    },
    async release(kept: DeadLetter[]) {
      if (kept.length > 0) {
        await subscriber.modifyAckDeadline({ subscription, ackIds: kept.map((l) => l.ackId), ackDeadlineSeconds: 0 });
      }
      await subscriber.close();
    },
  };
}

export const excerpt = (data: Buffer, length = 60) => {
  const text = data.toString("utf8").replace(/\s+/g, " ");
  return text.length > length ? `${text.slice(0, length)}...` : text;
};

/** The record already stored for the transaction this dead letter carries, if any. */
async function storedRecord(db: Firestore, letter: DeadLetter): Promise<QueryDocumentSnapshot | null> {
  if (!letter.organizationId || !letter.requestId || letter.transactionIndex === null) return null;
  const snap = await db
    .collection(COLLECTIONS.organizations)
    .doc(letter.organizationId)
    .collection(COLLECTIONS.transactions)
    .where("request_id", "==", letter.requestId)
    .where("transaction_index", "==", letter.transactionIndex)
    .limit(1)
    .get();
  return snap.docs[0] ?? null;
}

export type ReplayOutcome = { letter: DeadLetter } & ({ republishedAs: string } | { alreadyStoredAs: string });

/**
 * Republishes the chosen dead letters onto the main topic with their data and original attributes, then
 * acknowledges them in the hold subscription. A dead letter whose transaction already has a record (a
 * write that landed after its delivery timed out, or a record stored whose publish to the records feed kept
 * failing) is acknowledged without republishing, so replay never bills a transaction twice; that record is
 * published to `feed` first, so it is not missing from BigQuery either.
 */
export async function replayDeadLetters(
  pubsub: PubSub,
  db: Firestore,
  names: TopologyNames,
  choice: { all: true } | { ids: string[] },
  feed?: RecordsFeed,
): Promise<ReplayOutcome[]> {
  const hold = await holdDeadLetters(pubsub, names);
  const chosen = "all" in choice ? hold.letters : hold.letters.filter((letter) => choice.ids.includes(letter.id));
  const outcomes: ReplayOutcome[] = [];
  try {
    if (!("all" in choice)) {
      const missing = choice.ids.filter((id) => !hold.letters.some((letter) => letter.id === id));
      if (missing.length > 0) throw new UserError(`no dead letter has the id ${missing.join(", ")}`);
    }
    const topic = pubsub.topic(names.topic);
    for (const letter of chosen) {
      const stored = await storedRecord(db, letter);
      if (stored) {
        await feed?.publish(stored.data() as CostRecord);
        outcomes.push({ letter, alreadyStoredAs: stored.id });
      } else {
        const attributes = Object.fromEntries(
          Object.entries(letter.attributes).filter(([key]) => !DEAD_LETTER_ATTRIBUTE.test(key)),
        );
        outcomes.push({ letter, republishedAs: await topic.publishMessage({ data: letter.data, attributes }) });
      }
      await hold.acknowledge([letter]);
    }
  } finally {
    const done = new Set(outcomes.map((outcome) => outcome.letter.id));
    await hold.release(hold.letters.filter((letter) => !done.has(letter.id)));
  }
  return outcomes;
}
