import type { Firestore, QueryDocumentSnapshot, Timestamp } from "@google-cloud/firestore";
import { type CostRecord, DOCUMENT_PATHS } from "@usage-ingestion/shared";
import type { CostRollupDocument } from "../rollups.ts";
import { HOUR_MS, hourStartMs } from "../summaries.ts";
import { CellSums } from "./cells.ts";
import { foldMonth } from "./fold-month.ts";
import { type Folded, type Period, readEveryPage, writeSummary } from "./summary-writes.ts";

export type { Folded, Period } from "./summary-writes.ts";

const DAY_MS = 86_400_000;

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
  "provider_reported_cost_picos",
  "usage",
];

/** What a period's fold reads, and how each document adds to the cells. */
function source(db: Firestore, organizationId: string, period: Exclude<Period, { kind: "month" }>) {
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
  const query = hourRecords(db, organizationId, start, start + HOUR_MS);
  return { query, add: (sums: CellSums, doc: QueryDocumentSnapshot) => sums.addRecord(doc.data() as CostRecord) };
}

/** An organization's records received in [from, to) (epoch ms), by receive time, with the fields a fold counts. */
export const hourRecords = (db: Firestore, organizationId: string, from: number, to: number) =>
  db
    .collection(DOCUMENT_PATHS.transactions(organizationId))
    .where("received_at", ">=", new Date(from).toISOString())
    .where("received_at", "<", new Date(to).toISOString())
    .orderBy("received_at")
    .select(...COUNTED_FIELDS);

/**
 * Folds one organization's day (its roll-up shards), hour (its records) or month (fold-month.ts) into a
 * summary: reads them a page at a time, then writes the summary's parts, all stamped with the first
 * read's time and the fold's own id. Safe to rerun and to run twice at once: a reader takes one fold's
 * parts only and judges its freshness by that fold's read time (packages/reports/src/summaries.ts).
 */
export async function foldPeriod(db: Firestore, organizationId: string, period: Period): Promise<Folded> {
  if (period.kind === "month") return foldMonth(db, organizationId, period.month);
  const sums = new CellSums();
  const { query, add } = source(db, organizationId, period);
  const { read, readTime } = await readEveryPage(query, (doc) => add(sums, doc));
  const cells = sums.summaryCells();
  // Milliseconds, rounded down: a read time a little early only ever makes the summary look staler.
  const read_time = (readTime as Timestamp).toDate().toISOString();
  const { parts } = await writeSummary(db, organizationId, period, cells, read_time);
  return { period, read, cells: cells.length, parts, read_time };
}

/** Folds one day from its shards. */
export const foldDay = (db: Firestore, organizationId: string, day: string) =>
  foldPeriod(db, organizationId, { kind: "day", day });

/** Folds one hour (`YYYY-MM-DDTHH`) from its records. */
export const foldHour = (db: Firestore, organizationId: string, hour: string) =>
  foldPeriod(db, organizationId, { kind: "hour", hour });
