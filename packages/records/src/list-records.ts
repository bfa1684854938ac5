import {
  FieldPath,
  type Firestore,
  type Query,
  type QueryDocumentSnapshot,
  type QuerySnapshot,
  Timestamp,
} from "@google-cloud/firestore";
import type { ReportCeiling } from "@usage-ingestion/reports";
import { type CostRecord, DOCUMENT_PATHS, withTimeout } from "@usage-ingestion/shared";
import { isInvalidArgument } from "@usage-ingestion/shared/server";
import { type RecordView, recordView } from "./record-view.ts";
import type { PageTokens, ReadTime, RecordsPosition } from "./records-page-token.ts";
import {
  RECORD_FILTER_FIELDS,
  type RecordFilterField,
  type RecordFilters,
  type RecordsQuery,
  recordsFingerprint,
} from "./records-query.ts";

/** One page of `GET /usage/records`. */
export interface RecordsPage {
  records: RecordView[];
  /** Present exactly when more records of the listing follow. */
  next_page_token?: string;
}

/**
 * Firestore keeps every version of a document for an hour, and reads at an earlier time within it
 * (`readTime`). A listing reads at the time of its first page for up to 50 minutes, leaving room for the
 * difference between this clock and Firestore's; after that it goes on at the present (decision 0023).
 */
export const SNAPSHOT_WINDOW_MS = 50 * 60_000;
/**
 * The record fields a listing may filter on in its Firestore query, each with a composite index
 * (field, received_at descending) in infra/modules/firestore. One of them leads the query; any other filter
 * is applied to the records read, which the report ceiling on documents read bounds.
 */
export const INDEXED_RECORD_FIELDS: Record<RecordFilterField, string> = {
  billable_customer_id: "context.billable_customer_id",
  status: "status",
  model: "model",
  model_tier: "model_tier",
  provider: "provider",
};
/** The first batch of a page: at most this many records (about 13 MB at the 256 KiB a transaction may take). */
const FIRST_BATCH = 50;
/** Later batches are sized from the records read so far to about this much text each. */
const BATCH_BYTES = 2 * 1024 * 1024;
const MAX_BATCH = 500;
/**
 * An answer ends early, with a next page, once its records reach this much JSON: a page of a thousand
 * records with large contexts must not be held, and sent, whole.
 */
export const MAX_PAGE_BYTES = 4 * 1024 * 1024;

/**
 * The filter that leads the query: the one likely to leave the fewest records to read. A customer's records
 * are a small part of an organization's, and records that are not `priced` a small part of all; a provider
 * is most of them.
 */
function leadingFilter(filters: RecordFilters): RecordFilterField | undefined {
  const order: RecordFilterField[] =
    filters.status === "priced"
      ? ["billable_customer_id", "model", "model_tier", "provider", "status"]
      : ["billable_customer_id", "status", "model", "model_tier", "provider"];
  return order.find((field) => filters[field] !== undefined);
}

const fieldOf = (record: CostRecord, field: RecordFilterField): unknown =>
  field === "billable_customer_id"
    ? (record.context as { billable_customer_id?: unknown } | null)?.billable_customer_id
    : record[field];

/** Whether a record read keeps every filter (the leading one too: it costs nothing to check again). */
function keeps(record: CostRecord, filters: RecordFilters): boolean {
  for (const field of Object.keys(INDEXED_RECORD_FIELDS) as RecordFilterField[]) {
    const wanted = filters[field];
    if (wanted !== undefined && fieldOf(record, field) !== wanted) return false;
  }
  // As `/usage/costs` filters: by the dimension value the record's roll-up cell holds.
  for (const [name, wanted] of Object.entries(filters.dimensions)) {
    if (record.dimensions?.[name] !== wanted) return false;
  }
  return true;
}

/** A read time as Firestore takes it for a stale read: whole microseconds. */
const microseconds = (time: Timestamp): ReadTime => ({
  seconds: time.seconds,
  nanoseconds: time.nanoseconds - (time.nanoseconds % 1_000),
});

/**
 * Lists an organization's records newest received first, on a snapshot: every page of a listing reads
 * Firestore as it was when the first page was read, so records stored meanwhile (new ones, and ones received
 * earlier but committed late) neither shift a page boundary nor appear halfway through (decision 0023).
 * The order is (received_at, message id), both descending, and a page starts after the last record of the
 * one before. Documents read and time count against the report ceilings (`budget`, 422 past them).
 */
export async function listRecords(
  db: Firestore,
  tokens: PageTokens,
  organizationId: string,
  query: RecordsQuery,
  budget: ReportCeiling,
  now: Date,
): Promise<RecordsPage> {
  const lead = leadingFilter(query.filters);
  // Whether records read may still be left out: then a page reads on until it has its records.
  const filtered =
    Object.keys(query.filters.dimensions).length > 0 ||
    RECORD_FILTER_FIELDS.some((field) => field !== lead && query.filters[field] !== undefined);
  let base: Query = db.collection(DOCUMENT_PATHS.transactions(organizationId));
  if (lead !== undefined) base = base.where(INDEXED_RECORD_FIELDS[lead], "==", query.filters[lead]);
  base = base
    .where("received_at", ">=", query.from.toISOString())
    .where("received_at", "<", query.to.toISOString())
    .orderBy("received_at", "desc")
    .orderBy(FieldPath.documentId(), "desc")
    // The raw provider usage is not part of a listed record, and may be most of its size.
    .select(
      "message_id",
      "received_at",
      "provider",
      "model",
      "model_tier",
      "status",
      "unpriced_reason",
      "cost_usd",
      "cost_nanos",
      "provider_reported_cost",
      "provider_reported_cost_picos",
      "context",
      "usage",
      "transaction_id",
      "duplicate_of",
      "line_items",
      "dimensions",
    );

  const page = query.page;
  const fresh = page !== undefined && now.getTime() - page.readTime.seconds * 1_000 <= SNAPSHOT_WINDOW_MS;
  let readTime: Timestamp | undefined = fresh
    ? new Timestamp(page.readTime.seconds, page.readTime.nanoseconds)
    : undefined;
  let after: RecordsPosition["after"] | undefined = page?.after;

  /** One batch after `after`, at the snapshot; the first read of a listing fixes the snapshot. */
  const read = async (size: number): Promise<QuerySnapshot> => {
    const batch = (after ? base.startAfter(after.receivedAt, after.messageId) : base).limit(size);
    const at = readTime;
    const snapshot = at
      ? db
          .runTransaction((transaction) => transaction.get(batch), { readOnly: true, readTime: at })
          .catch((error: unknown) => {
            // Past the versions Firestore still holds (its clock ahead of ours): go on at the present.
            if (!isInvalidArgument(error) && !isFailedPrecondition(error)) throw error;
            readTime = undefined;
            return batch.get();
          })
      : batch.get();
    const snap = await withTimeout(snapshot, budget.remainingMs(), () => budget.timedOut());
    readTime ??= snap.readTime;
    budget.spend(snap.size);
    return snap;
  };

  const records: RecordView[] = [];
  let bytes = 0;
  let more = false;
  let size = Math.min(FIRST_BATCH, query.limit + 1);
  scan: for (;;) {
    const snap = await read(size);
    let batchBytes = 0;
    for (const doc of snap.docs as QueryDocumentSnapshot<CostRecord>[]) {
      const record = doc.data();
      const view = recordView({ ...record, message_id: doc.id });
      const viewBytes = Buffer.byteLength(JSON.stringify(view));
      batchBytes += viewBytes;
      if (!keeps(record, query.filters)) {
        after = { receivedAt: record.received_at, messageId: doc.id };
        continue;
      }
      if (records.length === query.limit || (records.length > 0 && bytes + viewBytes > MAX_PAGE_BYTES)) {
        more = true;
        break scan;
      }
      records.push(view);
      bytes += viewBytes;
      after = { receivedAt: record.received_at, messageId: doc.id };
    }
    if (snap.size < size) break;
    // Sized from what the records read weigh, within bounds: small records are read in few round trips.
    // Every record the query gives is kept when nothing is filtered as read: no more than the page needs.
    const average = Math.max(1, batchBytes / Math.max(1, snap.size));
    size = Math.max(1, Math.min(MAX_BATCH, Math.floor(BATCH_BYTES / average)));
    if (!filtered) size = Math.min(size, query.limit + 1 - records.length);
  }

  // The next page starts after the last record read before the one that did not fit: the records skipped
  // by a filter up to there are not read again.
  if (!more || !after || !readTime) return { records };
  const position: RecordsPosition = { readTime: microseconds(readTime), from: query.from, to: query.to, after };
  const binding = { organizationId, filters: recordsFingerprint(query.filters) };
  return { records, next_page_token: tokens.sign(binding, position) };
}

/** gRPC status 9: a read at a time whose versions Firestore no longer holds. */
const isFailedPrecondition = (error: unknown): boolean =>
  typeof error === "object" && error !== null && (error as { code?: unknown }).code === 9;
