import { createOrganization, setDimensions } from "@usage-ingestion/organizations";
import type { ReportField } from "@usage-ingestion/reports";
import {
  CostAggregate,
  type CostQuery,
  type CostReport,
  costReport,
  firestoreReportSource,
  fromRecord,
  type ReportSource,
} from "@usage-ingestion/reports";
import { type CostRecord, DOCUMENT_PATHS } from "@usage-ingestion/shared";
import fc from "fast-check";
import { expect } from "vitest";
import type { SeedRecord } from "../../scripts/lib/seed-usage.ts";
import { reportsFirestore, uniqueId } from "./harness.ts";

/**
 * What the summary property tests share: a report over a range from every kind of document, and the same
 * report worked out from the records alone, by the counting rules every reader shares.
 */
const db = () => reportsFirestore();

/** The real source with every summary hidden: whole days from their shards, hours from their records. */
export const shardsOnly = (source: ReportSource): ReportSource => ({
  ...source,
  costSummaries: async function* () {},
  hourSummaries: async function* () {},
  hourPartials: async function* () {},
  monthSummaries: async function* () {},
});

export const rangeQuery = (range: { from: Date; to: Date }, groupBy: ReportField[]): CostQuery => ({
  ...range,
  groupBy,
  filters: {},
  format: "json",
  limit: Number.POSITIVE_INFINITY,
  offset: 0,
});

export const figures = (report: CostReport) => ({ groups: report.groups, totals: report.totals });

/** The report worked out from the records of the range alone. */
export async function fromRecords(organizationId: string, range: { from: Date; to: Date }, groupBy: ReportField[]) {
  const aggregate = new CostAggregate(groupBy, {});
  const snap = await db()
    .collection(DOCUMENT_PATHS.transactions(organizationId))
    .where("received_at", ">=", range.from.toISOString())
    .where("received_at", "<", range.to.toISOString())
    .get();
  for (const doc of snap.docs) {
    const part = fromRecord(doc.data() as CostRecord);
    if (part) aggregate.add(part);
  }
  const { groups, totals } = aggregate.result();
  return { groups, totals };
}

/** Every grouping the same from summaries, from shards and from the records, to the nano-dollar. */
export async function expectSameEverywhere(
  organizationId: string,
  range: { from: Date; to: Date },
  groupings: ReportField[][],
) {
  const source = firestoreReportSource(db());
  for (const groupBy of groupings) {
    const query = rangeQuery(range, groupBy);
    const summarized = figures(await costReport(source, organizationId, query, ["feature"]));
    const sharded = figures(await costReport(shardsOnly(source), organizationId, query, ["feature"]));
    expect(summarized, `group_by ${groupBy.join(",")}`).toEqual(sharded);
    expect(summarized, `group_by ${groupBy.join(",")}`).toEqual(await fromRecords(organizationId, range, groupBy));
  }
}

/** An organization declaring the `feature` dimension. */
export async function freshOrganization(label: string) {
  const organizationId = uniqueId(label);
  await createOrganization(db(), organizationId);
  await setDimensions(db(), organizationId, ["feature"]);
  return organizationId;
}

/**
 * A record received at `origin` (epoch milliseconds) plus an offset drawn from `offsets`, of any
 * status, customer, model and feature, as the property tests draw them.
 */
export const seedRecordAt = (origin: number, offsets: fc.Arbitrary<number>): fc.Arbitrary<SeedRecord> =>
  fc
    .record({
      ms: offsets,
      customer: fc.constantFrom("a", "b", "c"),
      model: fc.constantFrom("gpt-4o", "o3"),
      feature: fc.constantFrom(undefined, "chat"),
      status: fc.constantFrom("priced", "priced", "priced", "unpriced", "conflict", "duplicate"),
      nanos: fc.bigInt({ min: 0n, max: 5_000_000_000_000_000n }),
    })
    .map(
      (r): SeedRecord => ({
        received_at: new Date(origin + r.ms).toISOString(),
        customer: r.customer,
        model: r.model,
        status: r.status as SeedRecord["status"],
        cost_nanos: Number(r.nanos),
        context: r.feature === undefined ? {} : { feature: r.feature },
      }),
    );

/** The reads of a report source that hand back pages of documents. */
type PagedRead = {
  [K in keyof ReportSource]: ReportSource[K] extends (...args: never[]) => AsyncIterable<unknown[]> ? K : never;
}[keyof ReportSource];

/** The real source, counting what each of the reads `names` hands back (documents, across pages). */
export function countedReads<K extends PagedRead>(source: ReportSource, names: readonly K[]) {
  const reads = Object.fromEntries(names.map((name) => [name, 0])) as Record<K, number>;
  const counted: ReportSource = { ...source };
  for (const name of names) {
    const read = source[name] as (...args: unknown[]) => AsyncIterable<unknown[]>;
    (counted as unknown as Record<K, unknown>)[name] = async function* (...args: unknown[]) {
      for await (const page of read(...args)) {
        reads[name] += page.length;
        yield page;
      }
    };
  }
  return { reads, source: counted };
}
