import type { DimensionsStore } from "@usage-ingestion/organizations";
import {
  type CustomPricingStore,
  InvalidCustomPricing,
  type PricedTransaction,
  priceAt,
  unpricedBecause,
} from "@usage-ingestion/prices";
import { declaredDimensions, type Quantities, quantitiesOf } from "@usage-ingestion/reports";
import {
  type CostRecord,
  parseQueueMessage,
  parseTraceparent,
  type RecordStatus,
  TRACEPARENT_ATTRIBUTE,
  toFieldErrors,
} from "@usage-ingestion/shared";
import { isInvalidArgument, type Logger, type PubSubEvent } from "@usage-ingestion/shared/server";
import { buildRecord } from "./build-record.ts";
import { contentHash } from "./content-hash.ts";
import type { RecordsFeed } from "./records-feed.ts";
import type { RecordStore } from "./store/records.ts";

export interface WorkerDeps {
  records: RecordStore;
  customPricing: CustomPricingStore;
  dimensions: DimensionsStore;
  /** Where every stored record is published, for BigQuery. */
  feed: RecordsFeed;
  logger: Logger;
  now?: () => Date;
}

export type Outcome = RecordStatus | "redelivered" | "rejected";

/**
 * Prices one queued transaction, stores it once, and publishes the record to the records feed beside the
 * commit (both under way at once, both awaited). Throws only what a retry can fix (Firestore down, the
 * feed not confirming): Pub/Sub then redelivers, and the dead-letter topic catches what keeps failing. A
 * message is acknowledged only once the feed has a row of what Firestore holds as the latest of its
 * message id (decision 0017):
 *
 * - stored as built: the row published beside the commit is that record;
 * - Firestore holds another record (a redelivery, a duplicate or conflict of a transaction id): that one
 *   is published after the first row, so it is the later of the two at its revision and the view keeps it;
 * - the commit failed or Firestore refused the record: a withdrawal row follows, and the view leaves the
 *   message id out until a redelivery stores the record and publishes it again.
 *
 * A message that can never be priced is kept in `rejected_messages` and acknowledged.
 */
export async function handleMessage(deps: WorkerDeps, event: PubSubEvent): Promise<Outcome> {
  const now = deps.now ?? (() => new Date());
  const started = process.hrtime.bigint();
  const pushed = event.data?.message;
  const messageId = pushed?.messageId ?? pushed?.message_id ?? event.id ?? `unidentified-${Date.now()}`;
  const log = (severity: "INFO" | "WARNING" | "ERROR", outcome: Outcome, fields: Record<string, unknown>) =>
    deps.logger.log(severity, `message ${outcome}`, {
      message_id: messageId,
      outcome,
      latency_ms: Number(process.hrtime.bigint() - started) / 1e6,
      trace: parseTraceparent(pushed?.attributes?.[TRACEPARENT_ATTRIBUTE]),
      ...fields,
    });

  const reject = async (reason: string) => {
    await deps.records.reject(messageId, {
      message_id: messageId,
      reason,
      data_base64: pushed?.data ?? null,
      data_text: pushed?.data ? Buffer.from(pushed.data, "base64").toString("utf8") : null,
      attributes: pushed?.attributes ?? {},
      subscription: event.data?.subscription ?? null,
      rejected_at: now().toISOString(),
    });
    log("ERROR", "rejected", { reason });
    return "rejected" as const;
  };

  if (!pushed?.data) return reject("the message has no data");
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(pushed.data, "base64").toString("utf8"));
  } catch {
    return reject("the message data is not JSON");
  }
  const parsed = parseQueueMessage(decoded);
  if (!parsed.success) {
    const problems = toFieldErrors(parsed.issues)
      .slice(0, 5)
      .map((error) => error.message);
    return reject(`the message is not a valid queue envelope: ${problems.join("; ")}`);
  }
  const message = parsed.output;

  let priced: PricedTransaction;
  try {
    const [custom, platform] = await Promise.all([
      deps.customPricing.get(message.organization_id),
      deps.customPricing.platform(),
    ]);
    priced = priceAt(message.transaction, new Date(message.received_at), custom, platform);
  } catch (error) {
    if (!(error instanceof InvalidCustomPricing)) throw error;
    priced = unpricedBecause(error.message);
  }

  const dimensions = declaredDimensions(
    message.transaction.context,
    await deps.dimensions.get(message.organization_id),
  );
  const record = buildRecord(messageId, message, priced, now(), dimensions);
  const quantities = quantitiesOf(message.transaction.usage);
  // The row leaves beside the commit: each delivery waits for the slower of the two, not for both in turn.
  const beside = publishedBeside(deps.feed, record, quantities);
  let outcome: Outcome;
  let stored: CostRecord | null;
  try {
    ({ outcome, stored } = await deps.records.store({
      record,
      quantities,
      contentHash: () => contentHash(message.transaction),
    }));
  } catch (error) {
    // The row may be in BigQuery while Firestore does not hold the record: take it back. A withdrawal that
    // fails throws, and the message comes back to store or withdraw again.
    await beside.settled;
    await deps.feed.withdraw(record, beside.after());
    // Firestore refusing the record as given is not fixed by a retry: keep the message, never loop on it.
    if (!isInvalidArgument(error)) throw error;
    return reject(`Firestore refused the record: ${(error as Error).message}`);
  }
  // A failure here throws: the message is redelivered, finds the record stored, and publishes it then.
  await beside.confirmed();
  if (stored !== record) {
    if (stored) await deps.feed.publish(stored, quantities, beside.after());
    else await deps.feed.withdraw(record, beside.after());
  }
  log(outcome === "unpriced" || outcome === "conflict" ? "WARNING" : "INFO", outcome, {
    organization_id: message.organization_id,
    request_id: message.request_id,
    transaction_index: message.transaction_index,
    cost_nanos: outcome === record.status ? record.cost_nanos : null,
    transaction_id: record.transaction_id ?? undefined,
    unpriced_reason: record.unpriced_reason ?? undefined,
  });
  return outcome;
}

/**
 * The record's row published before the commit's outcome is known, at a time of its own: `settled` when
 * Pub/Sub has answered either way (never rejects), `confirmed` resolving or rejecting as the publish did,
 * and `after` a time later than the row's, for the row that corrects or withdraws it.
 */
function publishedBeside(feed: RecordsFeed, record: CostRecord, quantities: Quantities) {
  const publishedAt = new Date();
  let failure: { error: unknown } | undefined;
  const settled = feed.publish(record, quantities, publishedAt).then(
    () => undefined,
    (error: unknown) => {
      failure = { error };
    },
  );
  return {
    settled,
    async confirmed() {
      await settled;
      if (failure) throw failure.error;
    },
    after: () => new Date(Math.max(Date.now(), publishedAt.getTime() + 1)),
  };
}
