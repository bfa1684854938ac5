import type { PubSub } from "@google-cloud/pubsub";
import type { Quantities } from "@usage-ingestion/reports";
import type { CostRecord } from "@usage-ingestion/shared";
import { publishBatcher, type Transport } from "@usage-ingestion/shared/server";
import { type RecordRow, recordRow, withdrawalRow } from "./record-rows.ts";

/**
 * Publishes stored records to the records topic, from which a BigQuery subscription writes them into
 * `usage.records` (docs/reports.md, "Past Firestore"). One message per record, its JSON the row.
 */
export interface RecordsFeed {
  /**
   * Resolves once Pub/Sub has confirmed the message; rejects (in at most the feed's time-out) when it has
   * not. The worker then fails the delivery, so the message comes back, finds its record stored, and
   * publishes it again: nothing stored is missing from the feed.
   */
  publish(record: CostRecord, quantities?: Quantities, publishedAt?: Date): Promise<void>;
  /**
   * Publishes the withdrawal of `record`'s row (withdrawalRow): for a row published beside a commit that
   * did not store the record. `publishedAt` must be later than that row's. Resolves and rejects as publish.
   */
  withdraw(record: CostRecord, publishedAt: Date): Promise<void>;
  /** Sends whatever is batched and waits for it; at shutdown. */
  flush(): Promise<void>;
}

export interface RecordsFeedOptions {
  topic: string;
  /** `wire`: the shared `Publish` call on HTTP/2 (the default); `client`: @google-cloud/pubsub's (PUBSUB_PUBLISH_TRANSPORT). */
  transport?: Transport;
  /** The most one publish may take, retries included. */
  timeoutMs: number;
  /**
   * How long a record may wait for others to share its publish call. The emulator pushes a worker only a
   * few messages at once, so each delivery's latency bounds the drain: on the `wire` transport a call
   * costs little CPU, and a record leaves at once (0, the default), sharing its call only with those
   * finished in the same turn of the event loop.
   */
  batchMaxMs?: number;
  now?: () => Date;
}

/** Attributes of each message: enough to route or filter a subscription without reading the data. */
export const recordAttributes = (row: Pick<RecordRow, "organization_id" | "revision">) => ({
  organization_id: row.organization_id,
  revision: String(row.revision),
});

/**
 * The records feed on the shared publish batcher (shared/src/server/pubsub/), on the transport
 * PUBSUB_PUBLISH_TRANSPORT names: each record is a request of its own, confirmed with the id Pub/Sub
 * returned or failed with why there is none (PublishTimeoutError past `timeoutMs`).
 */
export function pubSubRecordsFeed(pubsub: PubSub, options: RecordsFeedOptions): RecordsFeed {
  const now = options.now ?? (() => new Date());
  const batcher = publishBatcher(options.transport ?? "wire", pubsub, {
    topic: options.topic,
    timeoutMs: options.timeoutMs,
    batchMaxMs: options.batchMaxMs ?? 0,
  });
  const send = async (row: RecordRow) => {
    const [outcome] = await batcher.publish([{ data: JSON.stringify(row), attributes: recordAttributes(row) }]);
    if (outcome && "error" in outcome) throw outcome.error;
  };
  return {
    publish: (record, quantities, publishedAt) => send(recordRow(record, publishedAt ?? now(), quantities)),
    withdraw: (record, publishedAt) => send(withdrawalRow(record, publishedAt)),
    flush: () => batcher.flush(),
  };
}
