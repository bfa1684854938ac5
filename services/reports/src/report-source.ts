import type { Firestore } from "@google-cloud/firestore";
import {
  type CostRecord,
  type CostRollupDocument,
  DOCUMENT_PATHS,
  type OrganizationDocument,
  type UnpricedRollupDocument,
} from "@usage-ingestion/shared";
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
  "unpriced_reason",
  "usage",
];

/** What the reports read: roll-up shards by whole UTC days, records by receive time at the edges. */
export interface ReportSource {
  declaredDimensions(organizationId: string): Promise<string[]>;
  /** Cost roll-up shards of the days in [first, end). */
  costRollups(organizationId: string, first: string, end: string): Promise<CostRollupDocument[]>;
  unpricedRollups(organizationId: string, first: string, end: string): Promise<UnpricedRollupDocument[]>;
  /** Every record received in [from, to), whatever its status, with the fields a report counts. */
  records(organizationId: string, range: TimeRange): Promise<CostRecord[]>;
}

/**
 * Reads Firestore. Give it a client built with `useBigInt: true`: roll-up sums of nanos may pass 2^53,
 * which a plain client would round. Only single-field ranges are queried, so no composite index is needed.
 */
export function firestoreReportSource(db: Firestore): ReportSource {
  const byDay = async <T>(collection: string, first: string, end: string) => {
    const snap = await db.collection(collection).where("day", ">=", first).where("day", "<", end).get();
    return snap.docs.map((doc) => doc.data() as T);
  };
  return {
    async declaredDimensions(organizationId) {
      const snap = await db.doc(DOCUMENT_PATHS.organization(organizationId)).get();
      return (snap.data() as OrganizationDocument | undefined)?.dimensions ?? [];
    },
    costRollups: (organizationId, first, end) =>
      byDay<CostRollupDocument>(DOCUMENT_PATHS.costRollups(organizationId), first, end),
    unpricedRollups: (organizationId, first, end) =>
      byDay<UnpricedRollupDocument>(DOCUMENT_PATHS.unpricedRollups(organizationId), first, end),
    async records(organizationId, { from, to }) {
      const snap = await db
        .collection(DOCUMENT_PATHS.transactions(organizationId))
        .where("received_at", ">=", from.toISOString())
        .where("received_at", "<", to.toISOString())
        .select(...COUNTED_FIELDS)
        .get();
      return snap.docs.map((doc) => doc.data() as CostRecord);
    },
  };
}
