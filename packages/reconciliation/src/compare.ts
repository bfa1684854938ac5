import { type Provider, TOKEN_CONVENTIONS } from "@usage-ingestion/shared";
import { modelKey } from "./model-key.ts";
import {
  byDayModelSplit,
  PRICE_COMPONENTS,
  type PriceComponent,
  TOKEN_KINDS,
  type TokenCounts,
  type VendorFigure,
  zeroTokens,
} from "./vendor-figures.ts";

/** Our figures for one day and model, from the cost report (each vendor's token convention, as sent). */
export interface OurFigure {
  day: string;
  model: string;
  /** Read split by a context dimension: its value (null: none); absent, not split. */
  split?: string | null;
  tokens: TokenCounts;
  cost_nanos: bigint;
  transactions: number;
  unpriced_transactions: number;
}

/**
 * How far apart two figures may be and still be `matched`: token counts within `ppm` (parts per million)
 * of the vendor's, the cost within that share of the vendor's or `nanos`, whichever is larger.
 */
export interface Tolerance {
  ppm: number;
  nanos: bigint;
}
/** 1% and $0.01. */
export const DEFAULT_TOLERANCE: Tolerance = { ppm: 10_000, nanos: 10_000_000n };

export const CLASSES = ["matched", "vendor_only", "ours_only", "count_mismatch", "price_mismatch"] as const;
export type DifferenceClass = (typeof CLASSES)[number];

export interface Comparison {
  day: string;
  /** The model compared (modelKey), and the names each side gave it. */
  model: string;
  our_models: string[];
  vendor_models: string[];
  /**
   * Split by a mapped id: the vendor's id, which is also the value of the mapped context dimension on our
   * side (null: records without it, usage the vendor names no id for); null when not split.
   */
  split: string | null;
  ours: { tokens: TokenCounts; cost_nanos: bigint; transactions: number; unpriced_transactions: number };
  vendor: { tokens: TokenCounts; cost_nanos: bigint | null; components: Partial<Record<PriceComponent, bigint>> };
  /** The vendor's less ours: positive when the vendor counted or billed more. */
  difference: { tokens: TokenCounts; cost_nanos: bigint };
  class: DifferenceClass;
  /** For `price_mismatch`, the component whose cost differs most (named once our rates are known). */
  component: PriceComponent | null;
}

const abs = (n: bigint) => (n < 0n ? -n : n);
const within = (difference: bigint, base: bigint, tolerance: Tolerance, floor = 0n) =>
  abs(difference) * 1_000_000n <= abs(base) * BigInt(tolerance.ppm) || abs(difference) <= floor;

const hasTokens = (tokens: TokenCounts) => TOKEN_KINDS.some((kind) => tokens[kind] !== 0);

/** Each kind the vendor counted less ours. */
function tokenDifference(vendor: TokenCounts, ours: TokenCounts): TokenCounts {
  const difference = zeroTokens();
  for (const kind of TOKEN_KINDS) difference[kind] = vendor[kind] - ours[kind];
  return difference;
}

function classify(row: Omit<Comparison, "class" | "component">, tolerance: Tolerance): DifferenceClass {
  const oursSeen = hasTokens(row.ours.tokens) || row.ours.cost_nanos !== 0n || row.ours.transactions > 0;
  const vendorSeen = hasTokens(row.vendor.tokens) || (row.vendor.cost_nanos ?? 0n) !== 0n;
  if (!oursSeen && !vendorSeen) return "matched";
  if (!oursSeen) return "vendor_only";
  if (!vendorSeen) return "ours_only";
  const countsAgree = TOKEN_KINDS.every((kind) =>
    within(BigInt(row.difference.tokens[kind]), BigInt(row.vendor.tokens[kind]), tolerance),
  );
  if (!countsAgree) return "count_mismatch";
  // The vendor's cost report not in yet (it comes later than usage): the counts are what can be compared.
  if (row.vendor.cost_nanos === null) return "matched";
  return within(row.difference.cost_nanos, row.vendor.cost_nanos, tolerance, tolerance.nanos)
    ? "matched"
    : "price_mismatch";
}

/**
 * One row per day and model (and split value, figures read split) that either side has: our figures
 * beside the vendor's, the difference and its class. Our value of the mapped dimension is compared with the
 * vendor's id as they are. Pure: the same figures give the same rows, in day, model then split order.
 */
export function compareFigures(
  ours: readonly OurFigure[],
  vendor: readonly VendorFigure[],
  tolerance: Tolerance = DEFAULT_TOLERANCE,
): Comparison[] {
  const rows = new Map<string, Omit<Comparison, "class" | "component" | "difference">>();
  const rowOf = (day: string, model: string, split: string | null | undefined) => {
    const key = JSON.stringify([day, modelKey(model), split ?? null]);
    let row = rows.get(key);
    if (!row) {
      row = {
        day,
        model: modelKey(model),
        our_models: [],
        vendor_models: [],
        split: split ?? null,
        ours: { tokens: zeroTokens(), cost_nanos: 0n, transactions: 0, unpriced_transactions: 0 },
        vendor: { tokens: zeroTokens(), cost_nanos: null, components: {} },
      };
      rows.set(key, row);
    }
    return row;
  };
  for (const figure of ours) {
    const row = rowOf(figure.day, figure.model, figure.split);
    if (!row.our_models.includes(figure.model)) row.our_models.push(figure.model);
    for (const kind of TOKEN_KINDS) row.ours.tokens[kind] += figure.tokens[kind];
    row.ours.cost_nanos += figure.cost_nanos;
    row.ours.transactions += figure.transactions;
    row.ours.unpriced_transactions += figure.unpriced_transactions;
  }
  for (const figure of vendor) {
    const row = rowOf(figure.day, figure.model, figure.split);
    if (!row.vendor_models.includes(figure.model)) row.vendor_models.push(figure.model);
    for (const kind of TOKEN_KINDS) row.vendor.tokens[kind] += figure.tokens[kind];
    if (figure.cost_nanos !== null) row.vendor.cost_nanos = (row.vendor.cost_nanos ?? 0n) + figure.cost_nanos;
    for (const component of PRICE_COMPONENTS) {
      const nanos = figure.components[component];
      if (nanos !== undefined) row.vendor.components[component] = (row.vendor.components[component] ?? 0n) + nanos;
    }
  }
  return [...rows.values()]
    .map((row) => {
      const difference = {
        tokens: tokenDifference(row.vendor.tokens, row.ours.tokens),
        cost_nanos: (row.vendor.cost_nanos ?? 0n) - row.ours.cost_nanos,
      };
      const full = { ...row, difference };
      return { ...full, class: classify(full, tolerance), component: null };
    })
    .sort(byDayModelSplit);
}

/** The tokens billed at each component's rate, from counts in the vendor's own convention. */
export function billedTokens(provider: Provider, tokens: TokenCounts): Record<PriceComponent, number> {
  const { cachedInsideInput, writesInsideInput } = TOKEN_CONVENTIONS;
  return {
    input:
      tokens.input_tokens -
      (cachedInsideInput.has(provider) ? tokens.cached_tokens : 0) -
      (writesInsideInput.has(provider) ? tokens.cache_creation_input_tokens : 0),
    cache_read: tokens.cached_tokens,
    cache_write: tokens.cache_creation_input_tokens,
    output: tokens.output_tokens,
  };
}

/** Our rate of a component: USD for `per` tokens, as a record's line item states it. */
export interface OurRate {
  usd: string;
  per: number;
}

/**
 * Names the component of a price mismatch: for each component the vendor billed separately, what our rate
 * gives for the vendor's own count beside what the vendor billed; the one furthest apart is named.
 * `price(rate, tokens)` is our pricing's own rounding (whole nanos, half up).
 */
export function mismatchedComponent(
  provider: Provider,
  row: Comparison,
  rates: Partial<Record<PriceComponent, OurRate>>,
  price: (rate: OurRate, tokens: number) => bigint,
): { component: PriceComponent; ours_nanos: bigint; vendor_nanos: bigint } | null {
  const billed = billedTokens(provider, row.vendor.tokens);
  let worst: { component: PriceComponent; ours_nanos: bigint; vendor_nanos: bigint } | null = null;
  for (const component of PRICE_COMPONENTS) {
    const vendorNanos = row.vendor.components[component];
    if (vendorNanos === undefined) continue;
    const rate = rates[component];
    const oursNanos = rate ? price(rate, billed[component]) : 0n;
    if (!worst || abs(vendorNanos - oursNanos) > abs(worst.vendor_nanos - worst.ours_nanos)) {
      worst = { component, ours_nanos: oursNanos, vendor_nanos: vendorNanos };
    }
  }
  return worst && worst.vendor_nanos !== worst.ours_nanos ? worst : null;
}
