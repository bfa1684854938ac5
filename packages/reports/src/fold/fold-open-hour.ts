import type { Firestore, Timestamp } from "@google-cloud/firestore";
import type { CostRecord } from "@usage-ingestion/shared";
import {
  CLOCK_ALLOWANCE_MS,
  type CostSummaryDocument,
  FOLD_AFTER_MS,
  hourEndMs,
  hourStartMs,
  hourText,
  SUMMARY_PATHS,
  type SummaryMarkDocument,
  summaryIsFresh,
  wholeSummary,
} from "../summaries.ts";
import { cellAt, columnLength } from "../summary-columns.ts";
import { partColumns } from "../summary-parts.ts";
import { CellSums } from "./cells.ts";
import { hourRecords } from "./fold-period.ts";
import { readEveryPage, writeSummary } from "./summary-writes.ts";

const MINUTE_MS = 60_000;

/**
 * The open part of an hour to fold at `now` (the fold's clock): the hour's records received before the
 * watermark `until`, FOLD_AFTER_MS before now, floored to the minute. None when the watermark is an hour's
 * start: that hour has no open part yet, and the hour before is due for its whole fold.
 */
export function openHourPart(now: number): { hour: string; until: number } | null {
  const until = Math.floor((now - FOLD_AFTER_MS) / MINUTE_MS) * MINUTE_MS;
  const hour = hourText(until - 1);
  return until < hourEndMs(hour) ? { hour, until } : null;
}

export interface FoldedOpenHour {
  hour: string;
  /** The watermark, ISO 8601. */
  until: string;
  /** Records read (and parts of the summary before, when added to). */
  read: number;
  cells: number;
  parts: number;
  read_time: string;
  /** Added to the summary before (its cells and the records since its watermark), not read afresh. */
  incremental: boolean;
}

/** The latest of the hour's marks, if any. */
async function latestMarkOf(db: Firestore, organizationId: string, hour: string): Promise<string | undefined> {
  const marks = await db.collection(SUMMARY_PATHS.summaryMarks(organizationId)).where("hour", "==", hour).get();
  let latest: string | undefined;
  for (const doc of marks.docs) {
    const { changed_at } = doc.data() as SummaryMarkDocument;
    if (latest === undefined || Date.parse(changed_at) > Date.parse(latest)) latest = changed_at;
  }
  return latest;
}

/**
 * Folds one organization's open hour up to its watermark (openHourPart) into `hour_partials/{hour}_{part}`,
 * stamped with `until`, the watermark, besides the summaries' fields. Where the hour's summary before is
 * whole and fresh, its cells plus the records received since its watermark, under its read time (the
 * earliest snapshot of what it holds: a change after it to any of its records is marked later than that
 * less the allowance); otherwise the hour's records up to the watermark afresh, unless a mark is too
 * recent for a new snapshot to be fresh (it waits, as a stale period does). A record received before the
 * watermark and changed after the snapshot is late by `needsMark`, so marked: the summary is stale, and
 * readers read the records. Safe to run twice at once: readers take one fold's parts (`wholeSummary`).
 * Nothing is written when no record was read: readers read the records from the watermark before.
 */
export async function foldOpenHour(db: Firestore, organizationId: string, now: number): Promise<FoldedOpenHour | null> {
  const open = openHourPart(now);
  if (!open) return null;
  const { hour, until } = open;
  const [parts, latestMark] = await Promise.all([
    db
      .collection(SUMMARY_PATHS.hourPartials(organizationId))
      .where("hour", "==", hour)
      .get()
      .then((snap) => snap.docs.map((doc) => doc.data() as CostSummaryDocument)),
    latestMarkOf(db, organizationId, hour),
  ]);
  const before = wholeSummary(parts);
  const first = before?.[0];
  if (first?.until !== undefined && Date.parse(first.until) >= until) return null;
  const fresh = first !== undefined && first.until !== undefined && summaryIsFresh(first.read_time, latestMark);
  if (!fresh && latestMark !== undefined && now < Date.parse(latestMark) + 2 * CLOCK_ALLOWANCE_MS) return null;
  const sums = new CellSums();
  let from = hourStartMs(hour);
  let kept: string | undefined;
  if (fresh && before && first?.until !== undefined) {
    for (const part of before) {
      const columns = partColumns(part);
      for (let i = 0; i < columnLength(columns); i++) sums.addSummaryCell(cellAt(columns, i));
    }
    from = Date.parse(first.until);
    kept = first.read_time;
  }
  const { read, readTime } = await readEveryPage(hourRecords(db, organizationId, from, until), (doc) =>
    sums.addRecord(doc.data() as CostRecord),
  );
  // No record since: the summary before stands (its records since are none), and an idle organization
  // costs its reads only, no write a minute.
  if (read === 0) return null;
  // Milliseconds, rounded down: a read time a little early only ever makes the summary look staler.
  const read_time = kept ?? (readTime as Timestamp).toDate().toISOString();
  const cells = sums.summaryCells();
  const untilText = new Date(until).toISOString();
  const written = await writeSummary(db, organizationId, { kind: "partial", hour }, cells, read_time, {
    until: untilText,
  });
  return {
    hour,
    until: untilText,
    read: read + (kept ? (before?.length ?? 0) : 0),
    cells: cells.length,
    parts: written.parts,
    read_time,
    incremental: kept !== undefined,
  };
}
