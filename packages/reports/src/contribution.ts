import type { CostRecord, UsageEntry } from "@usage-ingestion/shared";
import { dimensionOf, type ReportField } from "./report-fields.ts";
import {
  type CostRollupDocument,
  countedMoney,
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
  /** The priced records with the vendor's own cost, that cost in pico-USD, ours of them in nano-USD (decision 0031). */
  reported_transactions: number;
  reported_picos: bigint;
  reported_nanos: bigint;
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
    // Absent on cells no record with the vendor's own cost reached (every cell written before): 0.
    reported_transactions: plainCount(doc.provider_reported_transactions),
    reported_picos: wholeNanos(doc.provider_reported_cost_picos),
    reported_nanos: wholeNanos(doc.cost_nanos_where_provider_reported),
  };
}

/** A record counted as the worker counts it into its cell (`recordChange`); null for records that add nothing. */
export function fromRecord(record: CostRecord): Contribution | null {
  const change = recordChange(countedMoney(record), () => quantitiesOf(plainNumbers(record.usage) as UsageEntry[]));
  if (change === null) return null;
  return {
    values: cellValues(rollupKeyOf(record)),
    cost_nanos: BigInt(change.costNanos ?? 0n),
    transactions: change.transactions ?? 0,
    unpriced_transactions: change.unpriced ?? 0,
    conflict_transactions: change.conflicts ?? 0,
    quantities: change.quantities ?? zeroQuantities(),
    reported_transactions: change.reported?.transactions ?? 0,
    reported_picos: BigInt(change.reported?.picos ?? 0n),
    reported_nanos: BigInt(change.reported?.nanos ?? 0n),
  };
}
