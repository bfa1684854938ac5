import { type DocumentReference, FieldValue, type Firestore } from "@google-cloud/firestore";
import { type CostRecord, DOCUMENT_PATHS } from "@usage-ingestion/shared";
import type { Increment } from "@usage-ingestion/shared/server";
import { sha256Hex } from "@usage-ingestion/shared/server";
import {
  cellText,
  type Quantities,
  type RollupChange,
  type RollupKey,
  recordChange,
  rollupKeyOf,
  shardOf,
  unpricedReasonOf,
} from "./rollups.ts";
import { hourOf, needsMark, SUMMARY_PATHS, type SummaryMarkDocument } from "./summaries.ts";

/** A write to add to the record's own commit: a roll-up document and what to add to it. */
export interface MergeWrite {
  ref: DocumentReference;
  /** The cell's key fields, set by a merge. */
  key: Record<string, unknown>;
  /** Every counter's increment by field path, zeros too (so a new cell starts with them all). */
  counters: Increment[];
  /** Written whole on every commit, never as increments only: a day's change mark (no counters). */
  always?: true;
}

/** A cell's write from one statement of what it adds: its key `fields`, its counters and its quantities. */
function cellWrite(
  ref: DocumentReference,
  fields: Record<string, unknown>,
  counters: Record<string, number | undefined>,
  quantities: Array<[string, number]> = [],
): MergeWrite {
  const increments: Increment[] = Object.entries(counters).map(([field, value = 0]) => [[field], value]);
  // A change without quantities (a conflict) has no quantity counters, so a merge leaves the field alone.
  for (const [name, value] of quantities) increments.push([["quantities", name], value]);
  return { ref, key: fields, counters: increments };
}

/**
 * The whole cell as a Firestore client merges it (`set(ref, data, { merge: true })`): its key, and every
 * counter as an increment, nested by its path; creates the cell when it is missing.
 */
export function mergeData(write: MergeWrite): Record<string, unknown> {
  const data: Record<string, unknown> = { ...write.key };
  for (const [path, amount] of write.counters) {
    let at = data;
    for (const segment of path.slice(0, -1)) {
      at[segment] ??= {};
      at = at[segment] as Record<string, unknown>;
    }
    at[path[path.length - 1] as string] = FieldValue.increment(amount);
  }
  return data;
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

/**
 * The merge that adds `change` to the record's roll-up cell (its shard chosen by message id), plus, for an
 * unpriced reason, the unpriced list's cell. Increments are applied by Firestore, so concurrent writers
 * never overwrite each other. A late change (by `at`, the real clock unless given: more than the allowance
 * after the record was received, `needsMark`) also marks the record's hour (and so its day), so that their
 * summaries and the open hour's, if folded already, are read as stale (packages/reports/src/summaries.ts).
 */
export function rollupWrites(
  db: Firestore,
  record: CostRecord,
  change: RollupChange,
  reason?: string,
  at: Date = new Date(),
): MergeWrite[] {
  const key = rollupKeyOf(record);
  const shard = shardOf(record.message_id);
  const org = record.organization_id;
  const quantities = Object.entries(change.quantities ?? {});
  const writes = [
    cellWrite(
      db.doc(costRollupPath(org, key, shard)),
      { ...key, shard },
      {
        transactions: change.transactions,
        unpriced_transactions: change.unpriced,
        conflict_transactions: change.conflicts,
        cost_nanos: change.costNanos,
        // Only a change with the vendor's own cost names these: every other commit stays as it was.
        ...(change.reported
          ? {
              provider_reported_transactions: change.reported.transactions,
              provider_reported_cost_picos: change.reported.picos,
              cost_nanos_where_provider_reported: change.reported.nanos,
            }
          : {}),
      },
      quantities,
    ),
  ];
  if (reason !== undefined && change.unpriced) {
    const { day, provider, model, model_tier } = key;
    writes.push(
      cellWrite(
        db.doc(unpricedRollupPath(org, key, reason, shard)),
        { day, provider, model, model_tier, reason, shard },
        { transactions: change.unpriced },
      ),
    );
  }
  const hour = hourOf(record.received_at);
  if (needsMark(record.received_at, at)) {
    const mark: SummaryMarkDocument = { day: key.day, hour, changed_at: at.toISOString() };
    writes.push({
      ref: db.doc(SUMMARY_PATHS.summaryMark(org, hour, shard)),
      key: { ...mark },
      counters: [],
      always: true,
    });
  }
  return writes;
}

/**
 * What a newly stored record adds to the reports, by the shared counting rules (`recordChange`), as stored
 * at `at` (now, unless given: a seeding of the past states when it stands in for the worker).
 */
export function recordRollupWrites(
  db: Firestore,
  record: CostRecord,
  quantities: Quantities,
  at: Date = new Date(),
): MergeWrite[] {
  const change = recordChange(record, () => quantities);
  if (change === null) return [];
  return rollupWrites(db, record, change, change.unpriced ? unpricedReasonOf(record) : undefined, at);
}
