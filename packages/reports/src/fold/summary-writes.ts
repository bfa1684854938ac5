import { randomUUID } from "node:crypto";
import type { Firestore, Query, QueryDocumentSnapshot, Timestamp } from "@google-cloud/firestore";
import { type CostSummaryDocument, monthFirstDay, SUMMARY_PATHS } from "../summaries.ts";
import type { SummaryCell } from "../summary-columns.ts";
import { splitParts } from "./cells.ts";

/** Documents read a page at a time. */
const PAGE = 1_000;

/**
 * What one fold folds: a UTC day (from its roll-up shards), a UTC hour (from its records) or a UTC month
 * (from its day summaries, or its days' shards where a day has no fresh one).
 */
export type Period = { kind: "day"; day: string } | { kind: "hour"; hour: string } | { kind: "month"; month: string };

/** Where a summary goes: a period's, or the open part of an hour (`hour_partials`, fold-open-hour.ts). */
export type SummaryPlace = Period | { kind: "partial"; hour: string };

export interface Folded {
  period: Period;
  /** Shards, records or summary parts read. */
  read: number;
  cells: number;
  parts: number;
  read_time: string;
}

/**
 * Reads every page of `query`, and the time of the first page's read. No transaction: one would expire
 * over a large day (Firestore ends a transaction after 270 s, 60 s idle), and none is needed. Every change
 * committed before that time is in the pages; one committed after it is in them or not, but it is marked
 * (if it is late) later than that time less the clock allowance, so the summary is stale anyway and
 * folded again. The first read time is the summary's `read_time`.
 */
export async function readEveryPage(
  query: Query,
  each: (doc: QueryDocumentSnapshot) => void,
  pageSize = PAGE,
): Promise<{ read: number; readTime: Timestamp | undefined }> {
  let readTime: Timestamp | undefined;
  let read = 0;
  let after: QueryDocumentSnapshot | undefined;
  for (;;) {
    const snap = await (after ? query.startAfter(after) : query).limit(pageSize).get();
    readTime ??= snap.readTime;
    for (const doc of snap.docs) each(doc);
    read += snap.size;
    if (snap.size < pageSize) return { read, readTime };
    after = snap.docs[snap.docs.length - 1];
  }
}

/** Where a period's summary parts go, and the fields that say which period they hold. */
function placeOf(organizationId: string, period: SummaryPlace) {
  switch (period.kind) {
    case "day":
      return {
        fields: { day: period.day },
        path: (part: number) => SUMMARY_PATHS.costSummary(organizationId, period.day, part),
      };
    case "hour":
      return {
        fields: { day: period.hour.slice(0, 10), hour: period.hour },
        path: (part: number) => SUMMARY_PATHS.hourSummary(organizationId, period.hour, part),
      };
    case "partial":
      return {
        fields: { day: period.hour.slice(0, 10), hour: period.hour },
        path: (part: number) => SUMMARY_PATHS.hourPartial(organizationId, period.hour, part),
      };
    case "month":
      return {
        fields: { day: monthFirstDay(period.month), month: period.month },
        path: (part: number) => SUMMARY_PATHS.monthSummary(organizationId, period.month, part),
      };
  }
}

/** Parts written in one batch: 8 x 800 KB (compressed) stays within Firestore's 10 MiB a request. */
const PARTS_PER_BATCH = 8;

/**
 * Writes a period's summary: its cells in parts within Firestore's document size, in batches of
 * PARTS_PER_BATCH (one batch for any day seen so far), all stamped with a new fold id and the snapshot
 * they were read at. A reader takes one fold's parts 0..n-1 only, all present (packages/reports/src/summaries.ts
 * `wholeSummary`), so writing again, twice at once, or a fold stopped between its batches never mixes
 * two folds: the period is read from what it was folded from meanwhile.
 */
export async function writeSummary(
  db: Firestore,
  organizationId: string,
  period: SummaryPlace,
  cells: readonly SummaryCell[],
  readTime: string,
  extra: Pick<CostSummaryDocument, "day_read_times" | "until"> = {},
): Promise<{ parts: number }> {
  const parts = splitParts(cells);
  const foldId = randomUUID();
  const { fields, path } = placeOf(organizationId, period);
  let batch = db.batch();
  for (const [part, { bytes, count }] of parts.entries()) {
    const doc: CostSummaryDocument = {
      ...fields,
      ...extra,
      part,
      parts: parts.length,
      fold_id: foldId,
      read_time: readTime,
      cell_count: count,
      cells_deflated: bytes,
    };
    batch.set(db.doc(path(part)), doc);
    if ((part + 1) % PARTS_PER_BATCH === 0 && part + 1 < parts.length) {
      await batch.commit();
      batch = db.batch();
    }
  }
  await batch.commit();
  return { parts: parts.length };
}
