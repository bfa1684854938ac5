import { createHash } from "node:crypto";
import { nanosToUsd } from "@usage-ingestion/shared";
import type { Comparison, DifferenceClass } from "./compare.ts";
import { PRICE_COMPONENTS, type PriceComponent, type TokenCounts } from "./vendor-figures.ts";
import type { ConnectionVendor } from "./vendors.ts";

/**
 * `organizations/{org}/reconciliations/{vendor}_{day}_{model hash}`: one vendor's day and model, as
 * `GET /usage/reconciliation` answers it. Money is a nine-place decimal string (signed for a difference).
 * Each run writes the rows of its days again, so a day the vendor restated is compared again.
 */
export interface ReconciliationRow {
  vendor: ConnectionVendor;
  day: string;
  model: string;
  our_models: string[];
  vendor_models: string[];
  /**
   * When the connection maps the vendor's id that splits its reports (`project_id`, `workspace_id`) to a
   * declared context dimension: that id, the dimension, and the value compared (the vendor's id, which our
   * records carry as the dimension's value; null for usage without one). Null when the row is not split.
   */
  split: RowSplit | null;
  class: DifferenceClass;
  /** For `price_mismatch`: the component whose cost our rate gives furthest from the vendor's, when known. */
  component: PriceComponent | null;
  component_cost: { ours_usd: string; vendor_usd: string } | null;
  ours: TokenCounts & { cost_usd: string; transactions: number; unpriced_transactions: number };
  /** The vendor's own report. */
  reported: TokenCounts & { cost_usd: string | null; components: Partial<Record<PriceComponent, string>> };
  /** The vendor's less ours. */
  difference: TokenCounts & { cost_usd: string };
  run_id: string;
  compared_at: string;
}

export interface RowSplit {
  vendor_field: string;
  dimension: string;
  value: string | null;
}

/** `{vendor}_{day}_{hash}`: of the model alone, or of the model and the split's value for a split row. */
export const rowId = (vendor: ConnectionVendor, day: string, model: string, split?: RowSplit | null) => {
  const named = split ? JSON.stringify([model, split.dimension, split.value]) : model;
  return `${vendor}_${day}_${createHash("sha256").update(named).digest("hex").slice(0, 16)}`;
};

export const rowIdOf = (row: ReconciliationRow) => rowId(row.vendor, row.day, row.model, row.split);

export function reconciliationRow(
  vendor: ConnectionVendor,
  comparison: Comparison,
  named: { component: PriceComponent; ours_nanos: bigint; vendor_nanos: bigint } | null,
  runId: string,
  now: Date,
  /** The split the run read (the vendor's id and the dimension it is mapped to); absent, not split. */
  splitBy?: { vendor_field: string; dimension: string },
): ReconciliationRow {
  const components: Partial<Record<PriceComponent, string>> = {};
  for (const component of PRICE_COMPONENTS) {
    const nanos = comparison.vendor.components[component];
    if (nanos !== undefined) components[component] = nanosToUsd(nanos);
  }
  return {
    vendor,
    day: comparison.day,
    model: comparison.model,
    our_models: comparison.our_models,
    vendor_models: comparison.vendor_models,
    split: splitBy ? { ...splitBy, value: comparison.split } : null,
    class: comparison.class,
    component: named?.component ?? null,
    component_cost: named
      ? { ours_usd: nanosToUsd(named.ours_nanos), vendor_usd: nanosToUsd(named.vendor_nanos) }
      : null,
    ours: {
      ...comparison.ours.tokens,
      cost_usd: nanosToUsd(comparison.ours.cost_nanos),
      transactions: comparison.ours.transactions,
      unpriced_transactions: comparison.ours.unpriced_transactions,
    },
    reported: {
      ...comparison.vendor.tokens,
      cost_usd: comparison.vendor.cost_nanos === null ? null : nanosToUsd(comparison.vendor.cost_nanos),
      components,
    },
    difference: { ...comparison.difference.tokens, cost_usd: nanosToUsd(comparison.difference.cost_nanos) },
    run_id: runId,
    compared_at: now.toISOString(),
  };
}
