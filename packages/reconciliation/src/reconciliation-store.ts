import { FieldPath, type Firestore, type WriteBatch } from "@google-cloud/firestore";
import type { ReportCeiling } from "@usage-ingestion/reports";
import { DOCUMENT_PATHS } from "@usage-ingestion/shared";
import { modelKey } from "./model-key.ts";
import { type ReconciliationRow, rowIdOf } from "./reconciliation-rows.ts";
import { DAY_MS, type DayRange } from "./vendor-days.ts";
import { byDayModelSplit } from "./vendor-figures.ts";
import { CONNECTION_VENDORS, type ConnectionVendor } from "./vendors.ts";

const WRITES_PER_BATCH = 400;
const READ_PAGE = 500;

const dayText = (at: Date) => at.toISOString().slice(0, 10);
/** The first id of a vendor's day, and the first id past its last day: ids sort by vendor, then day. */
const idBounds = (vendor: ConnectionVendor, range: DayRange) => ({
  first: `${vendor}_${dayText(range.from)}`,
  end: `${vendor}_${dayText(range.to)}`,
});

function vendorDays(db: Firestore, organizationId: string, vendor: ConnectionVendor, range: DayRange) {
  const { first, end } = idBounds(vendor, range);
  return db
    .collection(DOCUMENT_PATHS.reconciliations(organizationId))
    .orderBy(FieldPath.documentId())
    .startAt(first)
    .endBefore(end);
}

/**
 * Replaces one vendor's rows of the days in `range` with `rows`: a row of a day read again is written
 * again (a restated day), and one the new reading no longer has is removed.
 */
export async function replaceRows(
  db: Firestore,
  organizationId: string,
  vendor: ConnectionVendor,
  range: DayRange,
  rows: readonly ReconciliationRow[],
): Promise<void> {
  const keep = new Set(rows.map(rowIdOf));
  const stale: string[] = [];
  const existing = await vendorDays(db, organizationId, vendor, range).select().get();
  for (const doc of existing.docs) if (!keep.has(doc.id)) stale.push(doc.id);
  const writes: Array<(batch: WriteBatch) => void> = [
    ...rows.map((row) => (batch: WriteBatch) => {
      batch.set(db.doc(DOCUMENT_PATHS.reconciliation(organizationId, rowIdOf(row))), row);
    }),
    ...stale.map((id) => (batch: WriteBatch) => {
      batch.delete(db.doc(DOCUMENT_PATHS.reconciliation(organizationId, id)));
    }),
  ];
  for (let i = 0; i < writes.length; i += WRITES_PER_BATCH) {
    const batch = db.batch();
    for (const write of writes.slice(i, i + WRITES_PER_BATCH)) write(batch);
    await batch.commit();
  }
}

/** A row as written: a client reading integers as BigInt gives them back as such; every one is a count. */
function plain(value: unknown): unknown {
  if (typeof value === "bigint") return Number(value);
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, plain(item)]));
  }
  return value;
}

export interface RowQuery extends DayRange {
  vendor?: ConnectionVendor;
  model?: string;
}

/** The rows of the days in the range, by vendor, day and model; every page read counts against `ceiling`. */
export async function readRows(
  db: Firestore,
  organizationId: string,
  query: RowQuery,
  ceiling: ReportCeiling,
): Promise<ReconciliationRow[]> {
  const rows: ReconciliationRow[] = [];
  for (const vendor of query.vendor ? [query.vendor] : CONNECTION_VENDORS) {
    let last: string | undefined;
    for (;;) {
      let page = vendorDays(db, organizationId, vendor, query).limit(READ_PAGE);
      if (last) page = page.startAfter(last);
      const snap = await page.get();
      ceiling.spend(snap.size);
      for (const doc of snap.docs) {
        const stored = plain(doc.data()) as ReconciliationRow;
        // Rows stored before splits existed have no `split`: they were not split.
        const row = { ...stored, split: stored.split ?? null };
        const model = query.model;
        if (model === undefined || row.model === modelKey(model) || row.our_models.includes(model)) {
          rows.push(row);
        }
      }
      if (snap.size < READ_PAGE) break;
      last = snap.docs.at(-1)?.id;
    }
  }
  return rows.sort((a, b) =>
    a.day === b.day && a.vendor !== b.vendor
      ? a.vendor < b.vendor
        ? -1
        : 1
      : byDayModelSplit({ ...a, split: a.split?.value ?? null }, { ...b, split: b.split?.value ?? null }),
  );
}

/** Days between two instants, for bounds. */
export const daysIn = (range: DayRange) => Math.round((range.to.getTime() - range.from.getTime()) / DAY_MS);

/** What the gateway reads rows through (`GET /usage/reconciliation`). */
export interface ReconciliationReader {
  rows(organizationId: string, query: RowQuery, ceiling: ReportCeiling): Promise<ReconciliationRow[]>;
}

export const firestoreReconciliationReader = (db: Firestore): ReconciliationReader => ({
  rows: (organizationId, query, ceiling) => readRows(db, organizationId, query, ceiling),
});
