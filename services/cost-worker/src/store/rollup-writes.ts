import { createHash } from "node:crypto";
import { type DocumentReference, FieldValue, type Firestore } from "@google-cloud/firestore";
import {
  type CostRecord,
  cellText,
  DOCUMENT_PATHS,
  dayOf,
  isBillable,
  type Quantities,
  type RollupKey,
  shardOf,
} from "@usage-ingestion/shared";

/** A write to add to the record's own commit: a document and the fields to merge into it. */
export interface MergeWrite {
  ref: DocumentReference;
  data: Record<string, unknown>;
}

const shortHash = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 20);

function rollupKey(record: CostRecord): RollupKey {
  const context = (record.context ?? {}) as { billable_customer_id?: unknown };
  return {
    day: dayOf(record.received_at),
    provider: record.provider as RollupKey["provider"],
    model: record.model,
    model_tier: record.model_tier,
    billable_customer_id: String(context.billable_customer_id ?? ""),
    dimensions: record.dimensions ?? {},
  };
}

export interface RollupChange {
  transactions?: number;
  unpriced?: number;
  conflicts?: number;
  costNanos?: number;
  quantities?: Quantities;
}

/**
 * The merge that adds `change` to the record's roll-up cell (its shard chosen by message id), plus, for an
 * unpriced reason, the unpriced list's cell. Increments are applied by Firestore, so concurrent writers
 * never overwrite each other.
 */
export function rollupWrites(db: Firestore, record: CostRecord, change: RollupChange, reason?: string): MergeWrite[] {
  const key = rollupKey(record);
  const shard = shardOf(record.message_id);
  const org = record.organization_id;
  const cell = shortHash(cellText(key));
  const inc = (value = 0) => FieldValue.increment(value);
  const writes: MergeWrite[] = [
    {
      ref: db.doc(`${DOCUMENT_PATHS.costRollups(org)}/${key.day}_${cell}_${shard}`),
      data: {
        ...key,
        shard,
        transactions: inc(change.transactions),
        unpriced_transactions: inc(change.unpriced),
        conflict_transactions: inc(change.conflicts),
        cost_nanos: inc(change.costNanos),
        quantities: Object.fromEntries(
          Object.entries(change.quantities ?? {}).map(([name, value]) => [name, inc(value)]),
        ),
      },
    },
  ];
  if (reason !== undefined && change.unpriced) {
    const unpricedCell = shortHash(JSON.stringify([key.provider, key.model, key.model_tier, reason]));
    writes.push({
      ref: db.doc(`${DOCUMENT_PATHS.unpricedRollups(org)}/${key.day}_${unpricedCell}_${shard}`),
      data: {
        day: key.day,
        provider: key.provider,
        model: key.model,
        model_tier: key.model_tier,
        reason,
        shard,
        transactions: inc(change.unpriced),
      },
    });
  }
  return writes;
}

/** What a newly stored record adds to the reports: billable records count, duplicates never, conflicts apart. */
export function recordRollupWrites(db: Firestore, record: CostRecord, quantities: Quantities): MergeWrite[] {
  if (record.status === "duplicate") return [];
  if (!isBillable(record.status)) return rollupWrites(db, record, { conflicts: 1 });
  const unpriced = record.status === "unpriced";
  return rollupWrites(
    db,
    record,
    { transactions: 1, unpriced: unpriced ? 1 : 0, costNanos: record.cost_nanos ?? 0, quantities },
    unpriced ? (record.unpriced_reason ?? "unknown") : undefined,
  );
}
