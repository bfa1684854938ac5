import type { Firestore } from "@google-cloud/firestore";
import { COLLECTIONS } from "@usage-ingestion/shared";
import {
  CLOCK_ALLOWANCE_MS,
  type CostSummaryDocument,
  dayEndMs,
  FOLD_AFTER_MS,
  HOUR_MS,
  hourEndMs,
  hourText,
  monthEndMs,
  monthFirstDay,
  monthOf,
  monthSummaryIsFresh,
  nextMonth,
  SUMMARY_PATHS,
  type SummaryMarkDocument,
  type SummaryStateDocument,
  summaryIsFresh,
  wholeSummary,
} from "../summaries.ts";
import { type FoldedOpenHour, foldOpenHour } from "./fold-open-hour.ts";
import { foldPeriod } from "./fold-period.ts";
import type { Folded, Period } from "./summary-writes.ts";

const DAY_MS = 86_400_000;
const dayText = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export interface FoldOptions {
  /** Days back from today kept folded; older days without a summary are read from their shards. */
  lookbackDays: number;
  /** Hours back from this hour kept folded; older hours without a summary are read from their records. */
  lookbackHours: number;
  /** At most this many days and hours folded in one run (the rest in the next): one run stays short. */
  maxFolds: number;
  /** These organizations only; absent, every one. */
  organizationIds?: readonly string[];
}

export const DEFAULT_FOLD_OPTIONS: FoldOptions = { lookbackDays: 35, lookbackHours: 48, maxFolds: 200 };

/** What a folded period needs: nothing, a first fold, or a new one (marked changed since its snapshot). */
export type PeriodState = "fresh" | "unfolded" | "stale" | "settling";

/**
 * The state of a folded period from its summary's parts (metadata) and its latest mark. A stale period is
 * folded again only once its latest mark is older than twice the clock allowance ("settling" until then),
 * so that the new snapshot is surely after it.
 */
export function periodState(
  parts: readonly CostSummaryDocument[],
  latestMark: string | undefined,
  now: number,
  /** A month's summary is fresh by each day's own snapshot and marks (monthSummaryIsFresh). */
  isFresh: (summary: CostSummaryDocument) => boolean = (summary) => summaryIsFresh(summary.read_time, latestMark),
): PeriodState {
  const summary = wholeSummary(parts);
  if (!summary) return "unfolded";
  if (latestMark === undefined || isFresh(summary[0] as CostSummaryDocument)) return "fresh";
  return now >= Date.parse(latestMark) + 2 * CLOCK_ALLOWANCE_MS ? "stale" : "settling";
}

/** Each key's latest mark. */
export function latestMarks(marks: readonly SummaryMarkDocument[], keyOf: (mark: SummaryMarkDocument) => string) {
  const latest = new Map<string, string>();
  for (const mark of marks) {
    const key = keyOf(mark);
    const seen = latest.get(key);
    if (seen === undefined || Date.parse(mark.changed_at) > Date.parse(seen)) latest.set(key, mark.changed_at);
  }
  return latest;
}

/**
 * The days, the hours and the months that have ended long enough ago to fold, within the look-back, oldest
 * first. A month counts while its end is within the day look-back: a late record to it is folded again.
 */
export function endedPeriods(now: number, options: Pick<FoldOptions, "lookbackDays" | "lookbackHours">) {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const days: string[] = [];
  for (let d = today - options.lookbackDays * DAY_MS; d < today; d += DAY_MS) {
    if (dayEndMs(dayText(d)) + FOLD_AFTER_MS <= now) days.push(dayText(d));
  }
  const thisHour = Math.floor(now / HOUR_MS) * HOUR_MS;
  const hours: string[] = [];
  for (let h = thisHour - options.lookbackHours * HOUR_MS; h < thisHour; h += HOUR_MS) {
    if (hourEndMs(hourText(h)) + FOLD_AFTER_MS <= now) hours.push(hourText(h));
  }
  const months: string[] = [];
  const lookbackStart = today - options.lookbackDays * DAY_MS;
  for (
    let month = monthOf(dayText(lookbackStart));
    monthEndMs(month) + FOLD_AFTER_MS <= now;
    month = nextMonth(month)
  ) {
    if (monthEndMs(month) > lookbackStart) months.push(month);
  }
  return { days, hours, months };
}

/**
 * What one organization needs folded at `now`: the ended periods the fold step has not reached yet (its
 * state document says how far it has), and the folded ones marked changed since, once settled. A run
 * reads the state, the marks of the look-back, and the summaries' metadata of marked periods only.
 */
export async function duePeriods(
  db: Firestore,
  organizationId: string,
  now: number,
  options: FoldOptions = DEFAULT_FOLD_OPTIONS,
): Promise<{ periods: Period[]; state: SummaryStateDocument }> {
  const { days, hours, months } = endedPeriods(now, options);
  const state = ((await db.doc(SUMMARY_PATHS.summaryState(organizationId)).get()).data() ?? {}) as SummaryStateDocument;
  const newDays = days.filter((day) => state.days_from === undefined || day >= state.days_from);
  const newHours = hours.filter((hour) => state.hours_from === undefined || hour >= state.hours_from);
  const newMonths = months.filter((month) => state.months_from === undefined || month >= state.months_from);
  // From the first day of the earliest month: a month's freshness takes the marks of all its days.
  const first = [months[0] === undefined ? undefined : monthFirstDay(months[0]), days[0], dayText(now)]
    .filter((day): day is string => day !== undefined)
    .sort()[0] as string;
  const marks = (
    await db.collection(SUMMARY_PATHS.summaryMarks(organizationId)).where("day", ">=", first).get()
  ).docs.map((doc) => doc.data() as SummaryMarkDocument);
  const byDay = latestMarks(marks, (mark) => mark.day);
  const byHour = latestMarks(marks, (mark) => mark.hour);
  const meta = (path: string, field: "day" | "hour", value: string) =>
    db
      .collection(path)
      .where(field, "==", value)
      .select("day", "hour", "part", "parts", "fold_id", "read_time")
      .get()
      .then((snap) => snap.docs.map((doc) => doc.data() as CostSummaryDocument));
  const stale: Period[] = [];
  for (const [day, mark] of byDay) {
    if (!days.includes(day) || newDays.includes(day)) continue;
    const parts = await meta(SUMMARY_PATHS.costSummaries(organizationId), "day", day);
    const need = periodState(parts, mark, now);
    if (need === "stale" || need === "unfolded") stale.push({ kind: "day", day });
  }
  for (const [hour, mark] of byHour) {
    if (!hours.includes(hour) || newHours.includes(hour)) continue;
    const parts = await meta(SUMMARY_PATHS.hourSummaries(organizationId), "hour", hour);
    const need = periodState(parts, mark, now);
    if (need === "stale" || need === "unfolded") stale.push({ kind: "hour", hour });
  }
  const staleMonths: Period[] = [];
  const byMonth = latestMarks(marks, (mark) => monthOf(mark.day));
  for (const [month, mark] of byMonth) {
    if (!months.includes(month) || newMonths.includes(month)) continue;
    const parts = (
      await db
        .collection(SUMMARY_PATHS.monthSummaries(organizationId))
        .where("month", "==", month)
        .select("day", "month", "part", "parts", "fold_id", "read_time", "day_read_times")
        .get()
    ).docs.map((doc) => doc.data() as CostSummaryDocument);
    const need = periodState(parts, mark, now, (summary) => monthSummaryIsFresh(summary, (day) => byDay.get(day)));
    if (need === "stale" || need === "unfolded") staleMonths.push({ kind: "month", month });
  }
  return {
    // Months last: each is folded from its days' summaries, folded first.
    periods: [
      ...stale,
      ...newHours.map((hour): Period => ({ kind: "hour", hour })),
      ...newDays.map((day): Period => ({ kind: "day", day })),
      ...staleMonths,
      ...newMonths.map((month): Period => ({ kind: "month", month })),
    ],
    state,
  };
}

export interface FoldRun {
  organizations: number;
  folded: Array<Folded & { organization_id: string }>;
  /** Open hours folded up to their watermark (fold-open-hour.ts), one an organization at most. */
  openHours: Array<FoldedOpenHour & { organization_id: string }>;
  /** Periods and open hours left for the next run (past `maxFolds`). */
  deferred: number;
}

const nextDay = (day: string) => dayText(Date.parse(`${day}T00:00:00.000Z`) + DAY_MS);
const nextHour = (hour: string) => hourText(Date.parse(`${hour}:00:00.000Z`) + HOUR_MS);

/**
 * One run of the fold step: every organization's due periods, then its open hour up to its watermark, up
 * to `maxFolds` folds in all, then each organization's state moved past what it folded. Give it a client built with `useBigInt` (sums of
 * nanos may pass 2^53). Organizations are read a page of ids at a time.
 */
export async function foldDue(
  db: Firestore,
  now: number,
  options: FoldOptions = DEFAULT_FOLD_OPTIONS,
): Promise<FoldRun> {
  const run: FoldRun = { organizations: 0, folded: [], openHours: [], deferred: 0 };
  const full = () => run.folded.length + run.openHours.length >= options.maxFolds;
  const foldOrganization = async (organizationId: string) => {
    run.organizations += 1;
    const { periods, state } = await duePeriods(db, organizationId, now, options);
    const moved: SummaryStateDocument = { ...state };
    const deferredMonths = new Set<string>();
    for (const period of periods) {
      // A month whose days wait for the next run waits too: it would read their shards instead.
      const waits = period.kind === "month" && deferredMonths.has(period.month);
      if (full() || waits) {
        run.deferred += 1;
        if (period.kind === "day") deferredMonths.add(monthOf(period.day));
        continue;
      }
      run.folded.push({ organization_id: organizationId, ...(await foldPeriod(db, organizationId, period)) });
      // New periods are folded oldest first: the state moves past each as it is done.
      if (period.kind === "day" && (moved.days_from === undefined || period.day >= moved.days_from)) {
        moved.days_from = nextDay(period.day);
      }
      if (period.kind === "hour" && (moved.hours_from === undefined || period.hour >= moved.hours_from)) {
        moved.hours_from = nextHour(period.hour);
      }
      if (period.kind === "month" && (moved.months_from === undefined || period.month >= moved.months_from)) {
        moved.months_from = nextMonth(period.month);
      }
    }
    if (
      moved.days_from !== state.days_from ||
      moved.hours_from !== state.hours_from ||
      moved.months_from !== state.months_from
    ) {
      await db.doc(SUMMARY_PATHS.summaryState(organizationId)).set(moved, { merge: true });
    }
    // The open hour last: at most an hour of records read afresh, a minute of them added to a fresh one.
    if (full()) {
      run.deferred += 1;
      return;
    }
    const open = await foldOpenHour(db, organizationId, now);
    if (open) run.openHours.push({ organization_id: organizationId, ...open });
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
