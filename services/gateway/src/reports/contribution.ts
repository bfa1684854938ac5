import {
  type CostRecord,
  type CostRollupDocument,
  dayOf,
  type Quantities,
  quantitiesOf,
  ROLLUP_QUANTITIES,
  type UsageEntry,
  zeroQuantities,
} from "@usage-ingestion/shared";
import { dimensionOf, type ReportField } from "./report-fields.ts";

/** What one roll-up shard or one record adds to a report: its grouping values and its counters. */
export interface Contribution {
  values: (field: ReportField) => string | null;
  cost_nanos: bigint;
  transactions: number;
  unpriced_transactions: number;
  conflict_transactions: number;
  quantities: Quantities;
}

/** Firestore hands back integers as number, or as bigint on a client built with `useBigInt`. */
const whole = (value: unknown): bigint =>
  typeof value === "bigint" ? value : typeof value === "number" ? BigInt(Math.trunc(value)) : 0n;
const amount = (value: unknown): number =>
  typeof value === "bigint" ? Number(value) : typeof value === "number" ? value : 0;

/** Usage as read by a BigInt client: its counts back to numbers, as quantitiesOf sums them. */
function plainNumbers(value: unknown): unknown {
  if (typeof value === "bigint") return Number(value);
  if (Array.isArray(value)) return value.map(plainNumbers);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, plainNumbers(inner)]));
  }
  return value;
}

function cellValues(cell: {
  day: string;
  provider: string;
  model: string;
  model_tier: string | null;
  billable_customer_id: string;
  dimensions?: Record<string, string | null>;
}) {
  return (field: ReportField): string | null => {
    const dimension = dimensionOf(field);
    if (dimension !== null) return cell.dimensions?.[dimension] ?? null;
    return cell[field as Exclude<ReportField, `context.${string}`>] ?? null;
  };
}

export function fromRollup(doc: CostRollupDocument): Contribution {
  const quantities = zeroQuantities();
  for (const name of ROLLUP_QUANTITIES) quantities[name] = amount(doc.quantities?.[name]);
  return {
    values: cellValues(doc),
    cost_nanos: whole(doc.cost_nanos),
    transactions: amount(doc.transactions),
    unpriced_transactions: amount(doc.unpriced_transactions),
    conflict_transactions: amount(doc.conflict_transactions),
    quantities,
  };
}

/**
 * A record counted as the worker counts it into its cell: `priced` and `unpriced` are billed, a `conflict`
 * is only listed, a `duplicate` is nothing. Null for records that add nothing.
 */
export function fromRecord(record: CostRecord): Contribution | null {
  if (record.status === "duplicate") return null;
  const context = (record.context ?? {}) as { billable_customer_id?: unknown };
  const values = cellValues({
    day: dayOf(record.received_at),
    provider: record.provider,
    model: record.model,
    model_tier: record.model_tier,
    billable_customer_id: String(context.billable_customer_id ?? ""),
    dimensions: record.dimensions,
  });
  const billed = record.status !== "conflict";
  return {
    values,
    cost_nanos: record.status === "priced" ? whole(record.cost_nanos) : 0n,
    transactions: billed ? 1 : 0,
    unpriced_transactions: record.status === "unpriced" ? 1 : 0,
    conflict_transactions: billed ? 0 : 1,
    quantities: billed ? quantitiesOf(plainNumbers(record.usage) as UsageEntry[]) : zeroQuantities(),
  };
}
