import type { ReportField } from "@usage-ingestion/reports";
import {
  CLOCK_ALLOWANCE_MS,
  type CostQuery,
  costReport,
  FOLD_AFTER_MS,
  firestoreReportSource,
  foldDay,
  foldDue,
  foldHour,
  HOUR_MS,
  hourText,
  type ReportSource,
} from "@usage-ingestion/reports";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runAdmin } from "../../scripts/admin/main.ts";
import { type SeedRecord, seedUsage } from "../../scripts/lib/seed-usage.ts";
import { firestore, reportsFirestore } from "../setup/harness.ts";
import {
  countedReads,
  expectSameEverywhere,
  figures,
  freshOrganization,
  rangeQuery,
  shardsOnly,
} from "../setup/summaries.ts";

/**
 * Day summaries against the shards and the records they fold: whatever was folded when, and whatever
 * arrived late since, a report is the same to the nano-dollar from summaries, from shards, and from the
 * records themselves.
 */
const DAY_MS = 86_400_000;
const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
/** Three whole days ten days back: ended long enough ago to fold, inside the fold's look-back. */
const days = [10, 9, 8].map((back) => new Date(today - back * DAY_MS).toISOString().slice(0, 10));
const at = (day: string, ms: number) => new Date(Date.parse(`${day}T00:00:00.000Z`) + ms).toISOString();
/**
 * From half past eleven on the day before to half past twelve on the day after: two edges, each of whole
 * hours (hour summaries or records) and a half hour (records).
 */
const RANGE = {
  from: new Date(Date.parse(at(days[0] as string, 0)) - DAY_MS / 2 - HOUR_MS / 2),
  to: new Date(Date.parse(at(days[2] as string, 0)) + 1.5 * DAY_MS + HOUR_MS / 2),
};
/** The whole hours of the two edges. */
const edgeHours = [
  ...periodHours(new Date(Date.parse(at(days[0] as string, 0)) - DAY_MS / 2).getTime(), 12),
  ...periodHours(Date.parse(at(days[2] as string, 0)) + DAY_MS, 12),
];
function periodHours(startMs: number, count: number): string[] {
  return Array.from({ length: count }, (_, i) => hourText(startMs + i * HOUR_MS));
}
const GROUPINGS: ReportField[][] = [[], ["billable_customer_id", "model"], ["context.feature"], ["model_tier"]];

const db = () => reportsFirestore();

/** The real source, counting what each of its reads hands back. */
const counted = (source: ReportSource) =>
  countedReads(source, [
    "costSummaries",
    "hourSummaries",
    "costRollups",
    "summaryMarks",
    "hourMarks",
    "records",
  ] as const);

const query = (groupBy: ReportField[], range = RANGE): CostQuery => rangeQuery(range, groupBy);

const expectSame = (organizationId: string) => expectSameEverywhere(organizationId, RANGE, GROUPINGS);

/** A record on one of the days or at the edges, of any status, stored in time or late but before the fold. */
const seedRecord = fc
  .record({
    day: fc.integer({ min: -1, max: 3 }),
    ms: fc.integer({ min: 0, max: DAY_MS - 1 }),
    customer: fc.constantFrom("a", "b", "c"),
    model: fc.constantFrom("gpt-4o", "o3"),
    tier: fc.constantFrom(null, "priority"),
    feature: fc.constantFrom(undefined, "chat", "search"),
    status: fc.constantFrom("priced", "priced", "priced", "unpriced", "conflict", "duplicate"),
    nanos: fc.bigInt({ min: 0n, max: 5_000_000_000_000n }),
    late: fc.boolean(),
  })
  .map((r): SeedRecord => {
    const day = new Date(Date.parse(at(days[0] as string, 0)) + r.day * DAY_MS).toISOString().slice(0, 10);
    const received = at(day, r.ms);
    return {
      received_at: received,
      // Late, but stored before any fold could run: a mark that the fold's snapshot already holds.
      ...(r.late ? { stored_at: new Date(Date.parse(at(day, 0)) + DAY_MS + 2 * 3_600_000).toISOString() } : {}),
      customer: r.customer,
      model: r.model,
      model_tier: r.tier,
      status: r.status as SeedRecord["status"],
      cost_nanos: Number(r.nanos),
      context: r.feature === undefined ? {} : { feature: r.feature },
    };
  });

describe("day summaries", () => {
  it("answer every report as the shards and the records do, folded whenever, with late records after", {
    timeout: 240_000,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(seedRecord, { minLength: 1, maxLength: 40 }),
        fc.array(seedRecord, { maxLength: 8 }),
        fc.boolean(),
        async (before, after, twice) => {
          const organizationId = await freshOrganization("summaries");
          await seedUsage(db(), organizationId, ["feature"], before);
          // Folded once, or twice at once (two schedulers): either way whole summaries.
          const folds = [
            ...days.map((day) => () => foldDay(db(), organizationId, day)),
            ...edgeHours.map((hour) => () => foldHour(db(), organizationId, hour)),
          ];
          await Promise.all(folds.flatMap((fold) => (twice ? [fold(), fold()] : [fold()])));
          await expectSame(organizationId);
          // And the whole days and hours came from their summaries alone.
          const { source, reads } = counted(firestoreReportSource(db()));
          await costReport(source, organizationId, query([]), ["feature"]);
          expect(reads.costSummaries).toBeGreaterThanOrEqual(days.length);
          expect(reads.hourSummaries).toBeGreaterThanOrEqual(edgeHours.length);
          expect(reads.costRollups).toBe(0);
          // Stored after the fold (now): the days they land on are marked, and read from their shards.
          const now = new Date().toISOString();
          await seedUsage(
            db(),
            organizationId,
            ["feature"],
            after.map((seed) => ({ ...seed, stored_at: now })),
          );
          await expectSame(organizationId);
        },
      ),
      { numRuns: 4 },
    );
  });

  it("read a folded day's summary, not its shards, until a late record marks it, and fold it again", async () => {
    const organizationId = await freshOrganization("summaries");
    const day = days[1] as string;
    // 48 records of 3 cells over the shards: 3 cells x up to 16 shards.
    const seeds = Array.from({ length: 48 }, (_, i) => ({
      received_at: at(day, i * 60_000),
      customer: `c-${i % 3}`,
      cost_nanos: 1_000 + i,
    }));
    await seedUsage(db(), organizationId, [], seeds);
    const wholeDay = { ...query(["billable_customer_id"]), from: new Date(at(day, 0)), to: new Date(at(day, DAY_MS)) };
    const read = async () => {
      const { source, reads } = counted(firestoreReportSource(db()));
      const report = await costReport(source, organizationId, wholeDay, []);
      return { reads, totals: report.totals };
    };

    const unfolded = await read();
    expect(unfolded.reads.costSummaries).toBe(0);
    expect(unfolded.reads.costRollups).toBeGreaterThan(3);
    // 48 x 1,000 + (0 + 1 + ... + 47) = 48,000 + 1,128.
    expect(unfolded.totals.cost_nanos).toBe("49128");

    // The fold step's first run folds every ended day of its look-back, this one among them.
    const options = { lookbackDays: 12, lookbackHours: 0, maxFolds: 500, organizationIds: [organizationId] };
    const first = await foldDue(db(), Date.now(), options);
    const folded = first.folded.find((f) => f.period.kind === "day" && f.period.day === day);
    expect(folded).toMatchObject({ cells: 3, parts: 1, read: unfolded.reads.costRollups });
    const summarized = await read();
    expect(summarized.reads).toEqual({
      costSummaries: 1,
      hourSummaries: 0,
      costRollups: 0,
      summaryMarks: 0,
      hourMarks: 0,
      records: 0,
    });
    expect(summarized.totals).toEqual(unfolded.totals);

    // A late record: the day is marked, its shards are read, and the record counts at once.
    await seedUsage(
      db(),
      organizationId,
      [],
      [{ received_at: at(day, 3_600_000), customer: "c-0", cost_nanos: 872, stored_at: new Date().toISOString() }],
    );
    const marked = await read();
    expect(marked.reads.summaryMarks).toBe(1);
    expect(marked.reads.costRollups).toBeGreaterThan(0);
    expect(marked.totals.cost_nanos).toBe("50000");

    // The fold step leaves it while the mark settles, then folds it again. Days after this one are left
    // out: a run minutes ahead just after midnight (UTC) also folds the day that has just ended, empty here.
    const foldedDays = (run: Awaited<ReturnType<typeof foldDue>>) =>
      run.folded.flatMap((f) => (f.period.kind === "day" && f.period.day <= day ? [f.period.day] : []));
    expect(foldedDays(await foldDue(db(), Date.now(), options))).toEqual([]);
    expect(foldedDays(await foldDue(db(), Date.now() + 2 * CLOCK_ALLOWANCE_MS + 1_000, options))).toEqual([day]);
    // Exact whichever it reads. (This fold's snapshot is seconds after the mark here, inside the clock
    // allowance, so the day still reads its shards; run at its real time it is minutes after, and fresh.)
    const again = await read();
    expect(again.totals.cost_nanos).toBe("50000");
    expect(again.totals).toEqual(marked.totals);
  });

  it("folds only ended days past the wait, each once, and none of them again while fresh", async () => {
    const organizationId = await freshOrganization("summaries");
    const yesterday = new Date(today - DAY_MS).toISOString().slice(0, 10);
    const todayText = new Date(today).toISOString().slice(0, 10);
    expect(todayText > yesterday).toBe(true);
    await seedUsage(
      db(),
      organizationId,
      [],
      [
        { received_at: at(yesterday, 1_000), cost_nanos: 5 },
        { received_at: at(todayText, 1_000), cost_nanos: 7 },
      ],
    );
    const mine = (run: Awaited<ReturnType<typeof foldDue>>) =>
      run.folded
        .filter((f) => f.organization_id === organizationId)
        .flatMap((f) => (f.period.kind === "day" ? [f.period.day] : []));
    // Just after midnight, yesterday is not folded yet: a record of it may still be on its way.
    const early = await foldDue(db(), today + FOLD_AFTER_MS - 1, {
      lookbackDays: 3,
      lookbackHours: 0,
      maxFolds: 5000,
      organizationIds: [organizationId],
    });
    expect(mine(early)).toEqual([3, 2].map((back) => new Date(today - back * DAY_MS).toISOString().slice(0, 10)));
    const first = await foldDue(db(), today + FOLD_AFTER_MS, {
      lookbackDays: 3,
      lookbackHours: 0,
      maxFolds: 5000,
      organizationIds: [organizationId],
    });
    expect(mine(first)).toEqual([yesterday]);
    const second = await foldDue(db(), today + FOLD_AFTER_MS + 60_000, {
      lookbackDays: 3,
      lookbackHours: 0,
      maxFolds: 5000,
      organizationIds: [organizationId],
    });
    expect(mine(second)).toEqual([]);
  });
});

describe("day summaries and re-pricing", () => {
  it("keep a re-priced folded day exact: the re-pricing marks it, and reports read it from its shards", async () => {
    const organizationId = await freshOrganization("summaries");
    const day = days[2] as string;
    const usage = [{ type: "custom" as const, metrics: { units: 4 } }];
    await seedUsage(
      db(),
      organizationId,
      [],
      [1, 2, 3].map((hour) => ({
        received_at: at(day, hour * 3_600_000),
        status: "unpriced" as const,
        provider: "custom" as const,
        model: "house",
        usage,
      })),
    );
    await foldDay(db(), organizationId, day);
    const wholeDay = { ...query([]), from: new Date(at(day, 0)), to: new Date(at(day, DAY_MS)) };
    const before = await costReport(firestoreReportSource(db()), organizationId, wholeDay, []);
    expect(before.totals).toMatchObject({ transactions: 3, unpriced_transactions: 3, cost_nanos: "0" });

    // 0.5 USD a unit, 4 units a record, 3 records: 3 x 4 x 0.5 = 6 USD = 6,000,000,000 nano-USD.
    await runAdmin(
      ["pricing", "add", organizationId, '{"provider":"custom","model":"house","unit":"0.5"}'],
      db(),
      () => {},
    );
    await runAdmin(["reprice", organizationId], firestore(), () => {});
    const after = await costReport(firestoreReportSource(db()), organizationId, wholeDay, []);
    expect(after.totals).toMatchObject({ transactions: 3, unpriced_transactions: 0, cost_nanos: "6000000000" });
    expect(figures(after)).toEqual(
      figures(await costReport(shardsOnly(firestoreReportSource(db())), organizationId, wholeDay, [])),
    );
  });
});
