import type { CostRecord, UsageEntry } from "@usage-ingestion/shared";
import { dimensionOf, type ReportField } from "./report-fields.ts";
import {
  type CostRollupDocument,
  plainCount,
  plainNumbers,
  type Quantities,
  quantitiesOf,
  ROLLUP_QUANTITIES,
  type RollupKey,
  recordChange,
  rollupKeyOf,
  wholeNanos,
  zeroQuantities,
} from "./rollups.ts";

/** What one roll-up shard or one record adds to a report: its grouping values and its counters. */
export interface Contribution {
  values: (field: ReportField) => string | null;
  cost_nanos: bigint;
  transactions: number;
  unpriced_transactions: number;
  conflict_transactions: number;
  quantities: Quantities;
}

function cellValues(cell: Omit<RollupKey, "dimensions"> & { dimensions?: RollupKey["dimensions"] }) {
  return (field: ReportField): string | null => {
    const dimension = dimensionOf(field);
    if (dimension !== null) {
      // A cell written before the dimension was declared lacks it: null, never an inherited property.
      const dimensions = cell.dimensions ?? {};
      return Object.hasOwn(dimensions, dimension) ? (dimensions[dimension] ?? null) : null;
    }
    return cell[field as Exclude<ReportField, `context.${string}`>] ?? null;
  };
}

export function fromRollup(doc: CostRollupDocument): Contribution {
  const quantities = zeroQuantities();
  for (const name of ROLLUP_QUANTITIES) quantities[name] = plainCount(doc.quantities?.[name]);
  return {
    values: cellValues(doc),
    cost_nanos: wholeNanos(doc.cost_nanos),
    transactions: plainCount(doc.transactions),
    unpriced_transactions: plainCount(doc.unpriced_transactions),
    conflict_transactions: plainCount(doc.conflict_transactions),
    quantities,
  };
}

/** A record counted as the worker counts it into its cell (`recordChange`); null for records that add nothing. */
export function fromRecord(record: CostRecord): Contribution | null {
  const change = recordChange({ status: record.status, cost_nanos: wholeNanos(record.cost_nanos) }, () =>
    quantitiesOf(plainNumbers(record.usage) as UsageEntry[]),
  );
  if (change === null) return null;
  return {
    values: cellValues(rollupKeyOf(record)),
    cost_nanos: BigInt(change.costNanos ?? 0n),
    transactions: change.transactions ?? 0,
    unpriced_transactions: change.unpriced ?? 0,
    conflict_transactions: change.conflicts ?? 0,
    quantities: change.quantities ?? zeroQuantities(),
  };
}
