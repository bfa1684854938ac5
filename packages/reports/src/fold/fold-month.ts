import type { Firestore, Timestamp } from "@google-cloud/firestore";
import { DOCUMENT_PATHS } from "@usage-ingestion/shared";
import type { CostRollupDocument } from "../rollups.ts";
import {
  type CostSummaryDocument,
  daysOfMonth,
  monthFirstDay,
  nextMonth,
  SUMMARY_PATHS,
  type SummaryMarkDocument,
  summaryIsFresh,
  wholeSummary,
} from "../summaries.ts";
import { cellAt, columnLength } from "../summary-columns.ts";
import { partColumns } from "../summary-parts.ts";
import { CellSums } from "./cells.ts";
import { type Folded, readEveryPage, writeSummary } from "./summary-writes.ts";

/** Day summaries' parts a page: each holds up to 800 KB of cells. */
const SUMMARY_PAGE = 4;

/** The latest mark of each day of [first, end). */
async function latestMarksOfDays(db: Firestore, organizationId: string, first: string, end: string) {
  const latest = new Map<string, string>();
  await readEveryPage(
    db
      .collection(SUMMARY_PATHS.summaryMarks(organizationId))
      .where("day", ">=", first)
      .where("day", "<", end)
      .orderBy("day"),
    (doc) => {
      const mark = doc.data() as SummaryMarkDocument;
      const seen = latest.get(mark.day);
      if (seen === undefined || Date.parse(mark.changed_at) > Date.parse(seen)) latest.set(mark.day, mark.changed_at);
    },
  );
  return latest;
}

/**
 * Folds one organization's ended UTC month (`YYYY-MM`): each day from its day summary where that is whole
 * and fresh (no change marked since its snapshot), from the day's roll-up shards otherwise, into
 * `month_summaries/{month}_{part}`. Each day keeps its own snapshot in `day_read_times`: a change to a day
 * after it was read is marked later than that less the clock allowance, so the month summary is stale
 * from then on (monthSummaryIsFresh) and readers go back to the days until the month is folded again.
 */
export async function foldMonth(db: Firestore, organizationId: string, month: string): Promise<Folded> {
  const first = monthFirstDay(month);
  const end = monthFirstDay(nextMonth(month));
  const latest = await latestMarksOfDays(db, organizationId, first, end);
  const sums = new CellSums();
  const dayReadTimes: Record<string, string> = {};
  let day: string | undefined;
  let parts: CostSummaryDocument[] = [];
  const settle = () => {
    const whole = day === undefined ? null : wholeSummary(parts);
    const readTime = whole?.[0]?.read_time;
    if (day !== undefined && whole && readTime !== undefined && summaryIsFresh(readTime, latest.get(day))) {
      for (const part of whole) {
        const columns = partColumns(part);
        for (let i = 0; i < columnLength(columns); i++) sums.addSummaryCell(cellAt(columns, i));
      }
      dayReadTimes[day] = readTime;
    }
    parts = [];
  };
  const summaries = db
    .collection(SUMMARY_PATHS.costSummaries(organizationId))
    .where("day", ">=", first)
    .where("day", "<", end)
    .orderBy("day");
  let { read } = await readEveryPage(
    summaries,
    (doc) => {
      const part = doc.data() as CostSummaryDocument;
      if (part.day !== day) {
        settle();
        day = part.day;
      }
      parts.push(part);
    },
    SUMMARY_PAGE,
  );
  settle();
  for (const each of daysOfMonth(month)) {
    if (dayReadTimes[each] !== undefined) continue;
    const shards = db
      .collection(DOCUMENT_PATHS.costRollups(organizationId))
      .where("day", "==", each)
      .orderBy("__name__");
    const folded = await readEveryPage(shards, (doc) => sums.addShard(doc.data() as CostRollupDocument));
    read += folded.read;
    // Milliseconds, rounded down: a read time a little early only ever makes the summary look staler.
    dayReadTimes[each] = (folded.readTime as Timestamp).toDate().toISOString();
  }
  const cells = sums.summaryCells();
  const read_time = Object.values(dayReadTimes).sort()[0] as string;
  const { parts: written } = await writeSummary(db, organizationId, { kind: "month", month }, cells, read_time, {
    day_read_times: dayReadTimes,
  });
  return { period: { kind: "month", month }, read, cells: cells.length, parts: written, read_time };
}
