import { randomUUID } from "node:crypto";
import type { Firestore, Query, QueryDocumentSnapshot, Timestamp } from "@google-cloud/firestore";
import {
  type CostRecord,
  type CostRollupDocument,
  type CostSummaryDocument,
  DOCUMENT_PATHS,
  HOUR_MS,
  hourStartMs,
  SUMMARY_PATHS,
} from "@usage-ingestion/shared";
import { CellSums, splitParts } from "./cells.ts";

/** Documents read a page at a time. */
const PAGE = 1_000;
const DAY_MS = 86_400_000;

/** What one fold folds: a UTC day (from its roll-up shards) or a UTC hour (from its records). */
export type Period = { kind: "day"; day: string } | { kind: "hour"; hour: string };

export interface Folded {
  period: Period;
  /** Shards or records read. */
  read: number;
  cells: number;
  parts: number;
  read_time: string;
}

/** The record fields a fold counts. */
const COUNTED_FIELDS = [
  "status",
  "received_at",
  "provider",
  "model",
  "model_tier",
  "context.billable_customer_id",
  "dimensions",
  "cost_nanos",
  "usage",
];

/** What a period's fold reads, and how each document adds to the cells. */
function source(db: Firestore, organizationId: string, period: Period) {
  if (period.kind === "day") {
    const next = new Date(Date.parse(`${period.day}T00:00:00.000Z`) + DAY_MS).toISOString().slice(0, 10);
    const query = db
      .collection(DOCUMENT_PATHS.costRollups(organizationId))
      .where("day", ">=", period.day)
      .where("day", "<", next)
      .orderBy("day");
    return {
      query,
      add: (sums: CellSums, doc: QueryDocumentSnapshot) => sums.addShard(doc.data() as CostRollupDocument),
    };
  }
  const start = hourStartMs(period.hour);
  const query = db
    .collection(DOCUMENT_PATHS.transactions(organizationId))
    .where("received_at", ">=", new Date(start).toISOString())
    .where("received_at", "<", new Date(start + HOUR_MS).toISOString())
    .orderBy("received_at")
    .select(...COUNTED_FIELDS);
  return { query, add: (sums: CellSums, doc: QueryDocumentSnapshot) => sums.addRecord(doc.data() as CostRecord) };
}

/**
 * Reads every page of `query`, and the time of the first page's read. No transaction: one would expire
 * over a large day (Firestore ends a transaction after 270 s, 60 s idle), and none is needed. Every change
 * committed before that time is in the pages; one committed after it is in them or not, but it is marked
 * (if it is late) later than that time less the clock allowance, so the summary is stale anyway and
 * folded again. The first read time is the summary's `read_time`.
 */
async function readPages(query: Query, each: (doc: QueryDocumentSnapshot) => void) {
  let readTime: Timestamp | undefined;
  let read = 0;
  let after: QueryDocumentSnapshot | undefined;
  for (;;) {
    const snap = await (after ? query.startAfter(after) : query).limit(PAGE).get();
    readTime ??= snap.readTime;
    for (const doc of snap.docs) each(doc);
    read += snap.size;
    if (snap.size < PAGE) return { read, readTime };
    after = snap.docs[snap.docs.length - 1];
  }
}

/**
 * Folds one organization's day (its roll-up shards) or hour (its records) into a summary: reads them a
 * page at a time, then writes the summary's parts in one batch, all stamped with the first read's time
 * and the fold's own id. Safe to rerun and to run twice at once: a reader takes one
 * fold's parts only and judges its freshness by that fold's read time (shared/src/summaries.ts).
 */
export async function foldPeriod(db: Firestore, organizationId: string, period: Period): Promise<Folded> {
  const sums = new CellSums();
  const { query, add } = source(db, organizationId, period);
  const { read, readTime } = await readPages(query, (doc) => add(sums, doc));
  const cells = sums.summaryCells();
  const parts = splitParts(cells);
  const foldId = randomUUID();
  // Milliseconds, rounded down: a read time a little early only ever makes the summary look staler.
  const read_time = readTime.toDate().toISOString();
  const day = period.kind === "day" ? period.day : period.hour.slice(0, 10);
  const batch = db.batch();
  parts.forEach(({ text, count }, part) => {
    const doc: CostSummaryDocument = {
      day,
      ...(period.kind === "hour" ? { hour: period.hour } : {}),
      part,
      parts: parts.length,
      fold_id: foldId,
      read_time,
      cell_count: count,
      cells: text,
    };
    const path =
      period.kind === "day"
        ? SUMMARY_PATHS.costSummary(organizationId, period.day, part)
        : SUMMARY_PATHS.hourSummary(organizationId, period.hour, part);
    batch.set(db.doc(path), doc);
  });
  await batch.commit();
  return { period, read, cells: cells.length, parts: parts.length, read_time };
}

/** Folds one day from its shards. */
export const foldDay = (db: Firestore, organizationId: string, day: string) =>
  foldPeriod(db, organizationId, { kind: "day", day });

/** Folds one hour (`YYYY-MM-DDTHH`) from its records. */
export const foldHour = (db: Firestore, organizationId: string, hour: string) =>
  foldPeriod(db, organizationId, { kind: "hour", hour });
