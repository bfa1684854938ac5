import { nanosToUsd, type PricingFields, type Transaction } from "@usage-ingestion/shared";
import { type PricingResult, priceTransaction } from "./build-line-items.ts";
import { type CustomPricing, type PlatformPricing, rateCardFor } from "./choose-rate-card.ts";
import type { RateCard } from "./rate-types.ts";

/** A pricing outcome with the rates it used (none when it could not be priced). */
export interface PricedTransaction {
  pricing: PricingResult;
  card: RateCard | null;
}

export const unpricedBecause = (reason: string): PricedTransaction => ({
  pricing: { status: "unpriced", unpriced_reason: reason },
  card: null,
});

/** Chooses the rates and prices the transaction with them: what the worker and re-pricing both do. */
export function priceAt(
  transaction: Transaction,
  receivedAt: Date,
  custom: CustomPricing | null,
  platform: PlatformPricing | null = null,
): PricedTransaction {
  const chosen = rateCardFor(transaction, receivedAt, custom, platform);
  if (!chosen.ok) return unpricedBecause(chosen.reason);
  return { pricing: priceTransaction(transaction, chosen.card), card: chosen.card };
}

/** The record fields that pricing decides; re-pricing rewrites exactly these. */
export function pricingFields({ pricing, card }: PricedTransaction): PricingFields {
  const source = { source: card?.source ?? null, version: card?.version ?? null, model: card?.model ?? null };
  if (pricing.status === "priced" && pricing.cost_nanos <= BigInt(Number.MAX_SAFE_INTEGER)) {
    return {
      status: "priced",
      unpriced_reason: null,
      cost_usd: nanosToUsd(pricing.cost_nanos),
      cost_nanos: Number(pricing.cost_nanos),
      line_items: pricing.line_items,
      pricing: source,
    };
  }
  return {
    status: "unpriced",
    unpriced_reason:
      pricing.status === "unpriced" ? pricing.unpriced_reason : "the total cost is too large to record exactly",
    cost_usd: null,
    cost_nanos: null,
    line_items: [],
    pricing: source,
  };
}
