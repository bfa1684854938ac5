import type { Firestore } from "@google-cloud/firestore";
import {
  CLOCK_ALLOWANCE_MS,
  COLLECTIONS,
  type CostSummaryDocument,
  dayEndMs,
  FOLD_AFTER_MS,
  SUMMARY_PATHS,
  type SummaryMarkDocument,
  summaryIsFresh,
  wholeSummary,
} from "@usage-ingestion/shared";
import { type FoldedDay, foldDay } from "./fold-day.ts";

const DAY_MS = 86_400_000;
const dayText = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export interface FoldOptions {
  /** Days back from today that are kept folded; older days without a summary are read from their shards. */
  lookbackDays: number;
  /** At most this many days folded in one run (the rest in the next): one run stays short. */
  maxDays: number;
  /** These organizations only; absent, every one. */
  organizationIds?: readonly string[];
}

export const DEFAULT_FOLD_OPTIONS: FoldOptions = { lookbackDays: 35, maxDays: 200 };

/** What a day needs: nothing, a first fold, or a new one (marked changed since its summary's snapshot). */
export type DayState = "fresh" | "unfolded" | "stale" | "settling";

/**
 * The state of each ended day of [first, end) from its summaries' metadata and its marks. A stale day is
 * folded again only once its latest mark is older than twice the clock allowance ("settling" until then),
 * so that the new snapshot is surely after it.
 */
export function dayStates(
  days: readonly string[],
  summaries: readonly CostSummaryDocument[],
  marks: readonly SummaryMarkDocument[],
  now: number,
): Map<string, DayState> {
  const latest = latestMarks(marks);
  const states = new Map<string, DayState>();
  for (const day of days) {
    const summary = wholeSummary(summaries.filter((part) => part.day === day));
    const mark = latest.get(day);
    if (!summary) states.set(day, "unfolded");
    else if (summaryIsFresh((summary[0] as CostSummaryDocument).read_time, mark)) states.set(day, "fresh");
    else states.set(day, now >= Date.parse(mark as string) + 2 * CLOCK_ALLOWANCE_MS ? "stale" : "settling");
  }
  return states;
}

/** Each day's latest mark. */
export function latestMarks(marks: readonly SummaryMarkDocument[]): Map<string, string> {
  const latest = new Map<string, string>();
  for (const mark of marks) {
    const seen = latest.get(mark.day);
    if (seen === undefined || Date.parse(mark.changed_at) > Date.parse(seen)) latest.set(mark.day, mark.changed_at);
  }
  return latest;
}

/** The days of one organization that a fold at `now` should fold, oldest first. */
export async function dueDays(
  db: Firestore,
  organizationId: string,
  now: number,
  options: FoldOptions = DEFAULT_FOLD_OPTIONS,
): Promise<string[]> {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const days: string[] = [];
  for (let d = today - options.lookbackDays * DAY_MS; d < today; d += DAY_MS) {
    const day = dayText(d);
    if (dayEndMs(day) + FOLD_AFTER_MS <= now) days.push(day);
  }
  if (days.length === 0) return [];
  const first = days[0] as string;
  const end = dayText(today);
  const byDay = (path: string) => db.collection(path).where("day", ">=", first).where("day", "<", end);
  const [summaries, marks] = await Promise.all([
    // The metadata only: the cells stay unread.
    byDay(SUMMARY_PATHS.costSummaries(organizationId)).select("day", "part", "parts", "fold_id", "read_time").get(),
    byDay(SUMMARY_PATHS.summaryMarks(organizationId)).get(),
  ]);
  const states = dayStates(
    days,
    summaries.docs.map((doc) => doc.data() as CostSummaryDocument),
    marks.docs.map((doc) => doc.data() as SummaryMarkDocument),
    now,
  );
  return days.filter((day) => states.get(day) === "unfolded" || states.get(day) === "stale");
}

export interface FoldRun {
  organizations: number;
  folded: Array<FoldedDay & { organization_id: string }>;
  /** Days left for the next run (past `maxDays`). */
  deferred: number;
}

/**
 * One run of the fold step: every organization's due days, up to `maxDays` in all. Give it a client built
 * with `useBigInt` (shard sums of nanos may pass 2^53). Organizations are read a page of ids at a time.
 */
export async function foldDue(
  db: Firestore,
  now: number,
  options: FoldOptions = DEFAULT_FOLD_OPTIONS,
): Promise<FoldRun> {
  const run: FoldRun = { organizations: 0, folded: [], deferred: 0 };
  const foldOrganization = async (organizationId: string) => {
    run.organizations += 1;
    for (const day of await dueDays(db, organizationId, now, options)) {
      if (run.folded.length >= options.maxDays) run.deferred += 1;
      else run.folded.push({ organization_id: organizationId, ...(await foldDay(db, organizationId, day)) });
    }
  };
  if (options.organizationIds) {
    for (const organizationId of options.organizationIds) await foldOrganization(organizationId);
    return run;
  }
  const organizations = db.collection(COLLECTIONS.organizations).select().orderBy("__name__");
  let after: string | undefined;
  for (;;) {
    const page = await (after === undefined ? organizations : organizations.startAfter(after)).limit(500).get();
    for (const org of page.docs) await foldOrganization(org.id);
    if (page.size < 500) return run;
    after = page.docs[page.docs.length - 1]?.id;
  }
}
