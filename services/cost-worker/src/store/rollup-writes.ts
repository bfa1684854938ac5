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
import { sha256Hex } from "@usage-ingestion/shared/server";

/** A write to add to the record's own commit: a roll-up document and what to add to it. */
export interface MergeWrite {
  ref: DocumentReference;
  /** The whole cell, its key and every counter's increment, to merge: creates the cell when it is missing. */
  data: Record<string, unknown>;
  /**
   * Only the increments that add something, by field path: all a cell that exists already needs, as an
   * `update` (which fails when the cell is missing).
   */
  increments: Record<string, FieldValue>;
}

/** The counters' and quantities' nonzero increments, by field path. */
function incrementsOf(change: Record<string, number | undefined>, quantities: Array<[string, number]>) {
  const increments: Record<string, FieldValue> = {};
  for (const [field, value] of Object.entries(change)) if (value) increments[field] = FieldValue.increment(value);
  for (const [name, value] of quantities) if (value) increments[`quantities.${name}`] = FieldValue.increment(value);
  return increments;
}

const shortHash = (text: string) => sha256Hex(text).slice(0, 20);

/** `organizations/{org}/cost_rollups/{day}_{cell}_{shard}`: one shard of one roll-up cell. */
export const costRollupPath = (organizationId: string, key: RollupKey, shard: number): string =>
  `${DOCUMENT_PATHS.costRollups(organizationId)}/${key.day}_${shortHash(cellText(key))}_${shard}`;

/** `organizations/{org}/unpriced_rollups/{day}_{reason cell}_{shard}`. */
export const unpricedRollupPath = (organizationId: string, key: RollupKey, reason: string, shard: number): string =>
  `${DOCUMENT_PATHS.unpricedRollups(organizationId)}/${key.day}_${shortHash(
    JSON.stringify([key.provider, key.model, key.model_tier, reason]),
  )}_${shard}`;

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
  const inc = (value = 0) => FieldValue.increment(value);
  const quantities = Object.entries(change.quantities ?? {});
  const writes: MergeWrite[] = [
    {
      ref: db.doc(costRollupPath(org, key, shard)),
      increments: incrementsOf(
        {
          transactions: change.transactions,
          unpriced_transactions: change.unpriced,
          conflict_transactions: change.conflicts,
          cost_nanos: change.costNanos,
        },
        quantities,
      ),
      data: {
        ...key,
        shard,
        transactions: inc(change.transactions),
        unpriced_transactions: inc(change.unpriced),
        conflict_transactions: inc(change.conflicts),
        cost_nanos: inc(change.costNanos),
        // Merged, an empty map would replace the cell's quantities with nothing: a change without
        // quantities (a conflict) leaves the field alone.
        ...(quantities.length > 0
          ? { quantities: Object.fromEntries(quantities.map(([name, value]) => [name, inc(value)])) }
          : {}),
      },
    },
  ];
  if (reason !== undefined && change.unpriced) {
    writes.push({
      ref: db.doc(unpricedRollupPath(org, key, reason, shard)),
      increments: incrementsOf({ transactions: change.unpriced }, []),
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
