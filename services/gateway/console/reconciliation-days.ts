import { decimalOf, nanosOf, percentOf } from "./exact-usd.ts";

/** The token counts each side gives, in the vendor's own convention (docs/reconciliation.md). */
export const TOKEN_KINDS = [
  ["input_tokens", "Input"],
  ["cached_tokens", "Cache reads"],
  ["cache_creation_input_tokens", "Cache writes"],
  ["output_tokens", "Output"],
] as const;
type Counts = Record<(typeof TOKEN_KINDS)[number][0], number>;

/** One row of `GET /usage/reconciliation`: a vendor's day and model, ours beside the vendor's. */
export interface ReconciliationRow {
  vendor: string;
  day: string;
  model: string;
  our_models: string[];
  vendor_models: string[];
  class: string;
  component: string | null;
  component_cost: { ours_usd: string; vendor_usd: string } | null;
  ours: Counts & { cost_usd: string; transactions: number };
  reported: Counts & { cost_usd: string | null };
  difference: Counts & { cost_usd: string };
}

/** One vendor's day: the rows' costs summed exactly, and the drift as a share of the vendor's. */
export interface DayTotal {
  day: string;
  vendor: string;
  rows: number;
  ours_usd: string;
  vendor_usd: string;
  /** The vendor's less ours. */
  difference_usd: string;
  /** The difference as a share of the vendor's total; null while the day is not complete, or the vendor's is 0. */
  drift: string | null;
  /** Rows the vendor counted without a cost yet (its cost report comes the next day): the day is not judged. */
  awaiting_cost: number;
}

/**
 * The rows' totals per UTC day and vendor, newest day first, as the drift alert sums them: a missing
 * vendor cost counts as none, and a day with a row the vendor counted but has not costed yet is not
 * judged. Amounts are summed as nano-USD, never as floats.
 */
export function dayTotals(rows: readonly ReconciliationRow[]): DayTotal[] {
  const sums = new Map<
    string,
    { day: string; vendor: string; rows: number; ours: bigint; reported: bigint; awaiting: number }
  >();
  for (const row of rows) {
    const key = `${row.day} ${row.vendor}`;
    const sum = sums.get(key) ?? { day: row.day, vendor: row.vendor, rows: 0, ours: 0n, reported: 0n, awaiting: 0 };
    sum.rows += 1;
    sum.ours += nanosOf(row.ours.cost_usd) ?? 0n;
    sum.reported += nanosOf(row.reported.cost_usd) ?? 0n;
    if (row.reported.cost_usd === null && row.class !== "ours_only") sum.awaiting += 1;
    sums.set(key, sum);
  }
  return [...sums.values()]
    .sort((a, b) => b.day.localeCompare(a.day) || a.vendor.localeCompare(b.vendor))
    .map((sum) => ({
      day: sum.day,
      vendor: sum.vendor,
      rows: sum.rows,
      ours_usd: decimalOf(sum.ours),
      vendor_usd: decimalOf(sum.reported),
      difference_usd: decimalOf(sum.reported - sum.ours),
      drift: sum.awaiting > 0 ? null : percentOf(sum.reported - sum.ours, sum.reported),
      awaiting_cost: sum.awaiting,
    }));
}
