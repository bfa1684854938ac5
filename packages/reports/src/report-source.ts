import type { Firestore, Query, QueryDocumentSnapshot, QuerySnapshot } from "@google-cloud/firestore";
import type { OrganizationDocument } from "@usage-ingestion/organizations";
import { type CostRecord, DOCUMENT_PATHS } from "@usage-ingestion/shared";
import type { CostRollupDocument, UnpricedRollupDocument } from "./rollups.ts";
import { type CostSummaryDocument, SUMMARY_PATHS, type SummaryMarkDocument } from "./summaries.ts";
import type { TimeRange } from "./time-range.ts";

/** The record fields a report counts: the raw provider usage, line items and the rest stay unread. */
const COUNTED_FIELDS = [
  "status",
  "received_at",
  "provider",
  "model",
  "model_tier",
  "context.billable_customer_id",
  "dimensions",
  "cost_nanos",
  "provider_reported_cost_picos",
  "unpriced_reason",
  "usage",
];

/**
 * What the reports read: month summaries by whole UTC months, day summaries and roll-up shards by whole UTC
 * days, hour summaries, open hours' summaries and records by receive time at the edges. Each is
 * read a page at a time, so a report holds one page and its groups, never the whole result set.
 */
export interface ReportSource {
  declaredDimensions(organizationId: string): Promise<string[]>;
  /** Cost roll-up shards of the days in [first, end). */
  costRollups(organizationId: string, first: string, end: string): AsyncIterable<CostRollupDocument[]>;
  /** Day summaries' parts of the days in [first, end), by day then part (packages/reports/src/summaries.ts). */
  costSummaries(organizationId: string, first: string, end: string): AsyncIterable<CostSummaryDocument[]>;
  /** The change marks of the days in [first, end). */
  summaryMarks(organizationId: string, first: string, end: string): AsyncIterable<SummaryMarkDocument[]>;
  /** Hour summaries' parts of the hours (`YYYY-MM-DDTHH`) in [first, end), by hour then part. */
  hourSummaries(organizationId: string, first: string, end: string): AsyncIterable<CostSummaryDocument[]>;
  /** Open hours' summaries' parts (`hour_partials`) of the hours in [first, end), by hour then part. */
  hourPartials(organizationId: string, first: string, end: string): AsyncIterable<CostSummaryDocument[]>;
  /** Month summaries' parts of the months (`YYYY-MM`) in [first, end), by month then part. */
  monthSummaries(organizationId: string, first: string, end: string): AsyncIterable<CostSummaryDocument[]>;
  /** The change marks of the hours in [first, end). */
  hourMarks(organizationId: string, first: string, end: string): AsyncIterable<SummaryMarkDocument[]>;
  unpricedRollups(organizationId: string, first: string, end: string): AsyncIterable<UnpricedRollupDocument[]>;
  /** Every record received in [from, to), whatever its status, with the fields a report counts. */
  records(organizationId: string, range: TimeRange): AsyncIterable<CostRecord[]>;
}

/** Documents a page: small enough to hold, large enough that a page's round trip is worth it. */
export const REPORT_PAGE_SIZE = 500;
/** Summary parts a page: each holds up to 800 KB of cells. */
export const SUMMARY_PAGE_SIZE = 4;

/**
 * A query's documents a page at a time, each page after the last document of the one before. The next
 * page is asked for as soon as a full page arrives, so Firestore serves it while the report sums this
 * one: at most one page more than the report takes is read, and a report that stops early lets it go.
 */
async function* pages<T>(query: Query, pageSize = REPORT_PAGE_SIZE): AsyncIterable<T[]> {
  const read = (after?: QueryDocumentSnapshot) => (after ? query.startAfter(after) : query).limit(pageSize).get();
  let next: Promise<QuerySnapshot> | undefined = read();
  while (next) {
    const snap: QuerySnapshot = await next;
    next = undefined;
    if (snap.empty) return;
    if (snap.size === pageSize) {
      next = read(snap.docs[snap.docs.length - 1]);
      // Awaited on the next turn, or let go with the report: never an unhandled rejection.
      next.catch(() => {});
    }
    yield snap.docs.map((doc) => doc.data() as T);
  }
}

/**
 * Reads Firestore. Give it a client built with `useBigInt: true`: roll-up sums of nanos may pass 2^53,
 * which a plain client would round. Only single-field ranges are queried, so no composite index is needed.
 */
export function firestoreReportSource(db: Firestore): ReportSource {
  const byPeriod = <T>(
    field: "day" | "hour" | "month",
    collection: string,
    first: string,
    end: string,
    pageSize = REPORT_PAGE_SIZE,
  ) => pages<T>(db.collection(collection).where(field, ">=", first).where(field, "<", end).orderBy(field), pageSize);
  const byDay = <T>(collection: string, first: string, end: string, pageSize = REPORT_PAGE_SIZE) =>
    byPeriod<T>("day", collection, first, end, pageSize);
  return {
    async declaredDimensions(organizationId) {
      const snap = await db.doc(DOCUMENT_PATHS.organization(organizationId)).get();
      return (snap.data() as OrganizationDocument | undefined)?.dimensions ?? [];
    },
    costRollups: (organizationId, first, end) =>
      byDay<CostRollupDocument>(DOCUMENT_PATHS.costRollups(organizationId), first, end),
    costSummaries: (organizationId, first, end) =>
      byDay<CostSummaryDocument>(SUMMARY_PATHS.costSummaries(organizationId), first, end, SUMMARY_PAGE_SIZE),
    summaryMarks: (organizationId, first, end) =>
      byDay<SummaryMarkDocument>(SUMMARY_PATHS.summaryMarks(organizationId), first, end),
    hourSummaries: (organizationId, first, end) =>
      byPeriod<CostSummaryDocument>("hour", SUMMARY_PATHS.hourSummaries(organizationId), first, end, SUMMARY_PAGE_SIZE),
    hourPartials: (organizationId, first, end) =>
      byPeriod<CostSummaryDocument>("hour", SUMMARY_PATHS.hourPartials(organizationId), first, end, SUMMARY_PAGE_SIZE),
    monthSummaries: (organizationId, first, end) =>
      byPeriod<CostSummaryDocument>(
        "month",
        SUMMARY_PATHS.monthSummaries(organizationId),
        first,
        end,
        SUMMARY_PAGE_SIZE,
      ),
    hourMarks: (organizationId, first, end) =>
      byPeriod<SummaryMarkDocument>("hour", SUMMARY_PATHS.summaryMarks(organizationId), first, end),
    unpricedRollups: (organizationId, first, end) =>
      byDay<UnpricedRollupDocument>(DOCUMENT_PATHS.unpricedRollups(organizationId), first, end),
    records: (organizationId, { from, to }) =>
      pages<CostRecord>(
        db
          .collection(DOCUMENT_PATHS.transactions(organizationId))
          .where("received_at", ">=", from.toISOString())
          .where("received_at", "<", to.toISOString())
          .orderBy("received_at")
          .select(...COUNTED_FIELDS),
      ),
  };
}
