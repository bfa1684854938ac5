import type { ReportField } from "@usage-ingestion/reports";
import {
  CLOCK_ALLOWANCE_MS,
  type CostQuery,
  costReport,
  daysOfMonth,
  FOLD_AFTER_MS,
  firestoreReportSource,
  foldDay,
  foldDue,
  foldHour,
  foldPeriod,
  monthOf,
  type ReportSource,
  SUMMARY_PATHS,
} from "@usage-ingestion/reports";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type SeedRecord, seedUsage } from "../../scripts/lib/seed-usage.ts";
import { reportsFirestore } from "../setup/harness.ts";
import { countedReads, expectSameEverywhere, freshOrganization, rangeQuery, seedRecordAt } from "../setup/summaries.ts";

/**
 * Month summaries against the day summaries, shards and records they fold: whatever was folded when, and
 * whatever arrived late since, a report is the same to the nano-dollar from any of them.
 */
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const MONTH = "2026-03";
const at = (ms: number) => new Date(ms).toISOString();
const MONTH_START = Date.parse(`${MONTH}-01T00:00:00.000Z`);
const MONTH_END = Date.parse("2026-04-01T00:00:00.000Z");
/** Noon two days before the month to noon the day after it: edges of hours, whole days, the whole month. */
const RANGE = { from: new Date(MONTH_START - 1.5 * DAY_MS), to: new Date(MONTH_END + 1.5 * DAY_MS) };
const EDGE_HOURS = [
  ...Array.from({ length: 12 }, (_, i) => at(MONTH_START - 1.5 * DAY_MS + i * HOUR_MS).slice(0, 13)),
  ...Array.from({ length: 12 }, (_, i) => at(MONTH_END + DAY_MS + i * HOUR_MS).slice(0, 13)),
];
const GROUPINGS: ReportField[][] = [[], ["billable_customer_id", "model"], ["context.feature"], ["day", "model"]];

const db = () => reportsFirestore();

/** The real source, counting what its summary and shard reads hand back. */
const counted = (source: ReportSource) =>
  countedReads(source, ["monthSummaries", "costSummaries", "costRollups"] as const);

const query = (groupBy: ReportField[], range = RANGE): CostQuery => rangeQuery(range, groupBy);

const expectSame = (organizationId: string) => expectSameEverywhere(organizationId, RANGE, GROUPINGS);

/** A record from two days before the month to two days after, of any status, nanos past 2^53 when summed. */
const seedRecord = seedRecordAt(
  MONTH_START,
  fc.integer({ min: -2 * DAY_MS, max: MONTH_END - MONTH_START + 2 * DAY_MS - 1 }),
);
const storedNow = (seeds: SeedRecord[]) => seeds.map((seed) => ({ ...seed, stored_at: new Date().toISOString() }));

describe("month summaries", () => {
  it("answer every report as day summaries, shards and records do, folded whenever, with late records", {
    timeout: 300_000,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(seedRecord, { minLength: 1, maxLength: 40 }),
        fc.subarray(daysOfMonth(MONTH)),
        fc.array(seedRecord, { maxLength: 4 }),
        fc.array(seedRecord, { maxLength: 4 }),
        fc.boolean(),
        async (before, foldedDays, between, after, twice) => {
          const organizationId = await freshOrganization("months");
          await seedUsage(db(), organizationId, ["feature"], before);
          // Some days folded first (the month reads their summaries), the rest from their shards.
          await Promise.all([
            ...foldedDays.map((day) => foldDay(db(), organizationId, day)),
            ...EDGE_HOURS.map((hour) => foldHour(db(), organizationId, hour)),
          ]);
          // Late records between the days' folds and the month's: those days are read from their shards.
          await seedUsage(db(), organizationId, ["feature"], storedNow(between));
          const fold = () => foldPeriod(db(), organizationId, { kind: "month", month: MONTH });
          await Promise.all(twice ? [fold(), fold()] : [fold()]);
          await expectSame(organizationId);
          if (between.length === 0) {
            // The whole month came from its summary alone.
            const { source, reads } = counted(firestoreReportSource(db()));
            await costReport(
              source,
              organizationId,
              query([], { from: new Date(MONTH_START), to: new Date(MONTH_END) }),
              ["feature"],
            );
            expect(reads).toMatchObject({ costSummaries: 0, costRollups: 0 });
            expect(reads.monthSummaries).toBeGreaterThanOrEqual(1);
          }
          // Stored after the month's fold: their days are marked, and the month is read from its days.
          await seedUsage(db(), organizationId, ["feature"], storedNow(after));
          await expectSame(organizationId);
        },
      ),
      { numRuns: 4 },
    );
  });

  it("are folded by the fold step after the month's days, and again once a late record has settled", {
    timeout: 120_000,
  }, async () => {
    const organizationId = await freshOrganization("months");
    // The month before last: ended, and within the day look-back, whatever today is.
    const thisMonth = Date.parse(`${monthOf(at(Date.now() - FOLD_AFTER_MS - 60_000))}-01T00:00:00.000Z`);
    const month = monthOf(at(thisMonth - DAY_MS));
    const days = daysOfMonth(month);
    await seedUsage(
      db(),
      organizationId,
      [],
      days.map((day, i) => ({ received_at: `${day}T10:00:00.000Z`, customer: `c-${i % 2}`, cost_nanos: 1_000 + i })),
    );
    const options = { lookbackDays: 35, lookbackHours: 0, maxFolds: 500, organizationIds: [organizationId] };
    const folded = (run: Awaited<ReturnType<typeof foldDue>>) => run.folded.map((f) => f.period);
    const first = folded(await foldDue(db(), Date.now(), options));
    // Months last, after every day they are folded from.
    expect(first.at(-1)).toEqual({ kind: "month", month });
    expect(first.filter((p) => p.kind === "day").length).toBeGreaterThanOrEqual(days.length);
    const wholeMonth = { from: new Date(`${month}-01T00:00:00.000Z`), to: new Date(thisMonth) };
    const read = async () => {
      const { source, reads } = counted(firestoreReportSource(db()));
      const report = await costReport(source, organizationId, query(["billable_customer_id"], wholeMonth), []);
      return { reads, totals: report.totals };
    };
    const summarized = await read();
    expect(summarized.reads).toEqual({ monthSummaries: 1, costSummaries: 0, costRollups: 0 });
    const sum = days.reduce((total, _day, i) => total + 1_000 + i, 0);
    expect(summarized.totals.cost_nanos).toBe(String(sum));
    // A month not whole in the range (the 2nd to its end) reads its days, never the month's summary.
    const { source: partSource, reads: partReads } = counted(firestoreReportSource(db()));
    const partial = { from: new Date(`${days[1]}T00:00:00.000Z`), to: new Date(thisMonth) };
    const partReport = await costReport(partSource, organizationId, query([], partial), []);
    expect(partReads.monthSummaries).toBe(0);
    expect(partReads.costSummaries + partReads.costRollups).toBeGreaterThanOrEqual(days.length - 1);
    expect(partReport.totals.cost_nanos).toBe(String(sum - 1_000));
    // One day of the whole month (a filter by day): that day alone, never the month's cells.
    const { source: daySource, reads: dayReads } = counted(firestoreReportSource(db()));
    const oneDay = { ...query([], wholeMonth), filters: { day: days[4] as string } };
    expect((await costReport(daySource, organizationId, oneDay, [])).totals.cost_nanos).toBe("1004");
    expect(dayReads.monthSummaries).toBe(0);
    const meta = (
      await db()
        .doc(SUMMARY_PATHS.monthSummary(organizationId, month, 0))
        .get()
    ).data();
    expect(Object.keys(meta?.day_read_times ?? {}).sort()).toEqual(days);

    // Nothing new: nothing folded again.
    expect(folded(await foldDue(db(), Date.now(), options))).toEqual([]);

    // A late record on the 3rd: the month is read from its days at once, and folded again once settled.
    await seedUsage(
      db(),
      organizationId,
      [],
      [
        {
          received_at: `${days[2]}T11:00:00.000Z`,
          customer: "c-0",
          cost_nanos: 7,
          stored_at: new Date().toISOString(),
        },
      ],
    );
    const marked = await read();
    expect(marked.reads.monthSummaries).toBe(1);
    // Each day from its summary, or its shards where it has none (before the look-back) or is marked.
    expect(marked.reads.costSummaries + marked.reads.costRollups).toBeGreaterThanOrEqual(days.length);
    expect(marked.reads.costRollups).toBeGreaterThan(0);
    expect(marked.totals.cost_nanos).toBe(String(sum + 7));
    expect(folded(await foldDue(db(), Date.now(), options))).toEqual([]);
    // Days after the month are left out: a run minutes ahead just after midnight (UTC) also folds the day
    // that has just ended, empty here.
    const again = folded(await foldDue(db(), Date.now() + 2 * CLOCK_ALLOWANCE_MS + 1_000, options)).filter(
      (p) => p.kind !== "day" || p.day <= (days.at(-1) as string),
    );
    // The 3rd again too, if it is within the day look-back; the month last.
    expect(again.at(-1)).toEqual({ kind: "month", month });
    expect(again.slice(0, -1).every((p) => p.kind === "day" && p.day === days[2])).toBe(true);
    expect((await read()).totals.cost_nanos).toBe(String(sum + 7));
  });
});
