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

export const rowId = (vendor: ConnectionVendor, day: string, model: string) =>
  `${vendor}_${day}_${createHash("sha256").update(model).digest("hex").slice(0, 16)}`;

export function reconciliationRow(
  vendor: ConnectionVendor,
  comparison: Comparison,
  named: { component: PriceComponent; ours_nanos: bigint; vendor_nanos: bigint } | null,
  runId: string,
  now: Date,
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
