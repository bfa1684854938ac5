import { randomUUID } from "node:crypto";
import { type CostRollupDocument, shardOf } from "@usage-ingestion/reports";
import { DOCUMENT_PATHS } from "@usage-ingestion/shared";
import { firestore } from "./harness.ts";

/** The organization's roll-up shards summed as a report would: billable count, unpriced, conflicts, nanos. */
export async function rollupTotals(organizationId: string) {
  const snap = await firestore().collection(DOCUMENT_PATHS.costRollups(organizationId)).get();
  const totals = { transactions: 0, unpriced: 0, conflicts: 0, costNanos: 0n };
  for (const doc of snap.docs) {
    const cell = doc.data() as CostRollupDocument;
    totals.transactions += cell.transactions;
    totals.unpriced += cell.unpriced_transactions;
    totals.conflicts += cell.conflict_transactions;
    totals.costNanos += BigInt(cell.cost_nanos);
  }
  return totals;
}

/** The organization's records by status, and the sum of the billable ones' nanos. */
export async function recordTotals(organizationId: string) {
  const snap = await firestore().collection(DOCUMENT_PATHS.transactions(organizationId)).get();
  const byStatus: Record<string, number> = {};
  let billedNanos = 0n;
  for (const doc of snap.docs) {
    const status = doc.get("status") as string;
    byStatus[status] = (byStatus[status] ?? 0) + 1;
    if (status === "priced") billedNanos += BigInt(doc.get("cost_nanos") as number);
  }
  return { count: snap.size, byStatus, billedNanos };
}

/** A message id whose record lands in the given roll-up shard. */
export function messageIdInShard(shard: number): string {
  for (;;) {
    const id = randomUUID();
    if (shardOf(id) === shard) return id;
  }
}
