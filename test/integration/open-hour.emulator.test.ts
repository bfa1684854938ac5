import type { ReportField } from "@usage-ingestion/reports";
import {
  type CostQuery,
  type CostSummaryDocument,
  cellAt,
  columnLength,
  costReport,
  firestoreReportSource,
  foldDue,
  foldOpenHour,
  HOUR_MS,
  partColumns,
  type ReportSource,
  SUMMARY_PATHS,
  type SummaryCell,
  wholeSummary,
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
  seedRecordAt,
  shardsOnly,
} from "../setup/summaries.ts";

/**
 * The open hour's summaries (`hour_partials`) against the records they fold: folded at any minute, once,
 * twice at once or added to, with late records and re-pricings after, a report is the same to the
 * nano-dollar from them and the records after their watermark as from the records alone. The fold's
 * clock is given (an hour ten days back, noon); Firestore's snapshots are now, so a change stored now is
 * after every snapshot, and late.
 */
const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const HOUR = Math.floor(Date.now() / DAY_MS) * DAY_MS - 10 * DAY_MS + 12 * HOUR_MS;
const HOUR_TEXT = new Date(HOUR).toISOString().slice(0, 13);
const at = (ms: number) => new Date(ms).toISOString();
const GROUPINGS: ReportField[][] = [[], ["billable_customer_id", "model"], ["context.feature"], ["day", "model"]];

const db = () => reportsFirestore();

/** The real source, counting the open hours' summary parts and the records it hands back. */
const counted = (source: ReportSource) => countedReads(source, ["hourPartials", "records"] as const);

/** The open hour's summary of `hour` now: its first part and its cells, in a stable order. */
async function partialOf(organizationId: string, hour = HOUR_TEXT) {
  const snap = await db().collection(SUMMARY_PATHS.hourPartials(organizationId)).where("hour", "==", hour).get();
  const whole = wholeSummary(snap.docs.map((doc) => doc.data() as CostSummaryDocument));
  if (!whole) return null;
  const cells: SummaryCell[] = whole.flatMap((part) => {
    const columns = partColumns(part);
    return Array.from({ length: columnLength(columns) }, (_, i) => cellAt(columns, i));
  });
  return { first: whole[0] as CostSummaryDocument, cells: cells.map((cell) => JSON.stringify(cell)).sort() };
}

async function report(organizationId: string, query: CostQuery) {
  const { source, reads } = counted(firestoreReportSource(db()));
  const result = await costReport(source, organizationId, query, ["feature"]);
  return { reads, totals: result.totals, result };
}

/** A record in the hour before the open one or in it, of any status, stored as it was received (on time). */
const seedRecord = seedRecordAt(
  HOUR,
  // Often on a minute or just before one: a watermark's edge.
  fc.oneof(
    fc.integer({ min: -HOUR_MS, max: HOUR_MS - 1 }),
    fc.tuple(fc.integer({ min: -60, max: 59 }), fc.constantFrom(0, -1)).map(([m, d]) => m * MINUTE_MS + d),
  ),
);

describe("open hours' summaries", () => {
  it("answer every report as the records alone do, folded at any minutes, with late records after", {
    timeout: 240_000,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(seedRecord, { minLength: 1, maxLength: 30 }),
        fc.array(seedRecord, { maxLength: 5 }),
        // The fold's runs, minutes from the open hour's start: the hour before's open part (up to 3 minutes
        // into this hour), this one's, added to minute by minute or read afresh.
        fc.uniqueArray(fc.integer({ min: -30, max: 62 }), { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        fc.integer({ min: 0, max: 60 }),
        async (before, late, minutes, twice, toMinute) => {
          const organizationId = await freshOrganization("open-hour");
          // And one record at each run's watermark (three minutes before it) and one just before.
          const edges = minutes.flatMap((minute) =>
            [0, -1].map((d): SeedRecord => ({ received_at: at(HOUR + (minute - 3) * MINUTE_MS + d), cost_nanos: 3 })),
          );
          await seedUsage(db(), organizationId, ["feature"], [...before, ...edges]);
          for (const minute of [...minutes].sort((a, b) => a - b)) {
            const fold = () => foldOpenHour(db(), organizationId, HOUR + minute * MINUTE_MS);
            await Promise.all(twice ? [fold(), fold()] : [fold()]);
          }
          // From inside the hour before (records), its whole hour, and this one up to any minute.
          const range = { from: new Date(HOUR - 1.5 * HOUR_MS), to: new Date(HOUR + toMinute * MINUTE_MS) };
          await expectSameEverywhere(organizationId, range, GROUPINGS);
          // Stored now, after every snapshot: late, so marked, and the open hours' summaries they land in stale.
          const now = new Date().toISOString();
          await seedUsage(
            db(),
            organizationId,
            ["feature"],
            late.map((seed) => ({ ...seed, stored_at: now })),
          );
          await expectSameEverywhere(organizationId, range, GROUPINGS);
        },
      ),
      { numRuns: 6 },
    );
  });

  it("read the summary and the records after its watermark only, add to it, and go stale on a late record", async () => {
    const organizationId = await freshOrganization("open-hour");
    // 30 records, one a minute, of 3 cells: 30 x 1,000 + (0 + 1 + ... + 29) = 30,435 nano-USD.
    await seedUsage(
      db(),
      organizationId,
      [],
      Array.from({ length: 30 }, (_, i) => ({
        received_at: at(HOUR + i * MINUTE_MS),
        customer: `c-${i % 3}`,
        cost_nanos: 1_000 + i,
      })),
    );
    const first = await foldOpenHour(db(), organizationId, HOUR + 33 * MINUTE_MS);
    expect(first).toMatchObject({
      hour: HOUR_TEXT,
      until: at(HOUR + 30 * MINUTE_MS),
      read: 30,
      cells: 3,
      parts: 1,
      incremental: false,
    });
    // Folded to the same watermark already: nothing to do.
    expect(await foldOpenHour(db(), organizationId, HOUR + 33 * MINUTE_MS + 59_999)).toBeNull();
    // Two more, from the watermark on: 5 + 7 = 12 more.
    await seedUsage(
      db(),
      organizationId,
      [],
      [
        { received_at: at(HOUR + 30 * MINUTE_MS), customer: "c-0", cost_nanos: 5 },
        { received_at: at(HOUR + 31 * MINUTE_MS), customer: "c-3", cost_nanos: 7 },
      ],
    );
    const soFar = { ...rangeQuery({ from: new Date(HOUR), to: new Date(HOUR + 32 * MINUTE_MS) }, []) };
    const read = await report(organizationId, soFar);
    expect(read.reads).toEqual({ hourPartials: 1, records: 2 });
    expect(read.totals).toMatchObject({ transactions: 32, cost_nanos: "30447" });
    // A report that ends before the watermark reads the records alone.
    const early = await report(
      organizationId,
      rangeQuery({ from: new Date(HOUR), to: new Date(HOUR + 29 * MINUTE_MS) }, []),
    );
    expect(early.reads.records).toBe(29);
    expect(early.totals.cost_nanos).toBe(String(29 * 1_000 + (28 * 29) / 2));

    // The next minutes: the summary before plus the records since its watermark, under its read time.
    const added = await foldOpenHour(db(), organizationId, HOUR + 35 * MINUTE_MS);
    expect(added).toMatchObject({ until: at(HOUR + 32 * MINUTE_MS), read: 3, cells: 4, incremental: true });
    expect(added?.read_time).toBe(first?.read_time);
    const incremental = await partialOf(organizationId);
    // The same cells as a fold of the records afresh.
    await db().recursiveDelete(db().collection(SUMMARY_PATHS.hourPartials(organizationId)));
    const afresh = await foldOpenHour(db(), organizationId, HOUR + 35 * MINUTE_MS);
    expect(afresh).toMatchObject({ read: 32, cells: 4, incremental: false });
    expect((await partialOf(organizationId))?.cells).toEqual(incremental?.cells);
    const whole = await report(organizationId, soFar);
    expect(whole.reads).toEqual({ hourPartials: 1, records: 0 });
    expect(whole.totals).toEqual(read.totals);

    // Late: received before the watermark, stored now, after the snapshot. Marked, so the summary is
    // stale and the report reads the records, the late one counted at once.
    await seedUsage(
      db(),
      organizationId,
      [],
      [
        {
          received_at: at(HOUR + 10 * MINUTE_MS),
          customer: "c-1",
          cost_nanos: 900,
          stored_at: new Date().toISOString(),
        },
      ],
    );
    const stale = await report(organizationId, soFar);
    expect(stale.reads).toEqual({ hourPartials: 1, records: 33 });
    expect(stale.totals).toMatchObject({ transactions: 33, cost_nanos: "31347" });
    expect(figures(stale.result)).toEqual(
      figures(await costReport(shardsOnly(firestoreReportSource(db())), organizationId, soFar, ["feature"])),
    );
    // The fold leaves it while the mark settles (its clock here is days before the mark): never added to.
    expect(await foldOpenHour(db(), organizationId, HOUR + 36 * MINUTE_MS)).toBeNull();
  });

  it("stand for an hour ended less than three minutes ago, not folded whole yet", async () => {
    const organizationId = await freshOrganization("open-hour");
    const before = HOUR - HOUR_MS;
    // One record every two minutes of the hour before: 30 records of 11 nano-USD each.
    await seedUsage(
      db(),
      organizationId,
      [],
      Array.from({ length: 30 }, (_, i) => ({ received_at: at(before + i * 2 * MINUTE_MS), cost_nanos: 11 })),
    );
    // Two minutes into this hour: the hour before up to a minute before its end, all 30 records.
    const folded = await foldOpenHour(db(), organizationId, HOUR + 2 * MINUTE_MS);
    expect(folded).toMatchObject({ hour: new Date(before).toISOString().slice(0, 13), until: at(HOUR - MINUTE_MS) });
    expect(folded?.read).toBe(30);
    const wholeHour = rangeQuery({ from: new Date(before), to: new Date(HOUR) }, []);
    const read = await report(organizationId, wholeHour);
    // The last record is of its 58th minute: none received in the hour's last minute.
    expect(read.reads).toEqual({ hourPartials: 1, records: 0 });
    expect(read.totals).toMatchObject({ transactions: 30, cost_nanos: "330" });
    // A record of the hour's last minute, stored on time: read beside the summary.
    await seedUsage(db(), organizationId, [], [{ received_at: at(HOUR - 30_000), cost_nanos: 4 }]);
    const more = await report(organizationId, wholeHour);
    expect(more.reads).toEqual({ hourPartials: 1, records: 1 });
    expect(more.totals).toMatchObject({ transactions: 31, cost_nanos: "334" });
  });

  it("stay exact when a record of the open hour is re-priced after its snapshot", async () => {
    const organizationId = await freshOrganization("open-hour");
    const usage = [{ type: "custom" as const, metrics: { units: 4 } }];
    await seedUsage(
      db(),
      organizationId,
      [],
      [1, 2, 3].map((minute) => ({
        received_at: at(HOUR + minute * MINUTE_MS),
        status: "unpriced" as const,
        provider: "custom" as const,
        model: "house",
        usage,
      })),
    );
    expect(await foldOpenHour(db(), organizationId, HOUR + 10 * MINUTE_MS)).toMatchObject({ read: 3, cells: 1 });
    const soFar = rangeQuery({ from: new Date(HOUR), to: new Date(HOUR + 8 * MINUTE_MS) }, []);
    const before = await report(organizationId, soFar);
    expect(before.reads).toEqual({ hourPartials: 1, records: 0 });
    expect(before.totals).toMatchObject({ transactions: 3, unpriced_transactions: 3, cost_nanos: "0" });

    // 0.5 USD a unit, 4 units a record, 3 records: 3 x 4 x 0.5 = 6 USD = 6,000,000,000 nano-USD.
    await runAdmin(
      ["pricing", "add", organizationId, '{"provider":"custom","model":"house","unit":"0.5"}'],
      db(),
      () => {},
    );
    await runAdmin(["reprice", organizationId], firestore(), () => {});
    const after = await report(organizationId, soFar);
    expect(after.reads).toEqual({ hourPartials: 1, records: 3 });
    expect(after.totals).toMatchObject({ transactions: 3, unpriced_transactions: 0, cost_nanos: "6000000000" });
  });

  it("are folded by each run of the fold step, one fold of its bound", async () => {
    const organizationId = await freshOrganization("open-hour");
    await seedUsage(db(), organizationId, [], [{ received_at: at(HOUR + 5 * MINUTE_MS), cost_nanos: 3 }]);
    const options = { lookbackDays: 0, lookbackHours: 0, organizationIds: [organizationId] };
    const bounded = await foldDue(db(), HOUR + 20 * MINUTE_MS, { ...options, maxFolds: 0 });
    expect(bounded).toMatchObject({ openHours: [], deferred: 1 });
    const run = await foldDue(db(), HOUR + 20 * MINUTE_MS, { ...options, maxFolds: 1 });
    expect(run.openHours).toMatchObject([
      { organization_id: organizationId, hour: HOUR_TEXT, until: at(HOUR + 17 * MINUTE_MS), read: 1 },
    ]);
    // No record since: no write, the summary before stands.
    expect((await foldDue(db(), HOUR + 21 * MINUTE_MS, { ...options, maxFolds: 1 })).openHours).toEqual([]);
    expect((await partialOf(organizationId))?.first.until).toBe(at(HOUR + 17 * MINUTE_MS));
  });
});
