import type { Transaction } from "@usage-ingestion/shared";
import { type PricingResult, priceTransaction } from "./price-transaction.ts";
import { type CustomPricing, rateCardFor } from "./rate-card.ts";
import type { RateCard } from "./rates.ts";

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
export function priceAt(transaction: Transaction, receivedAt: Date, custom: CustomPricing | null): PricedTransaction {
  const chosen = rateCardFor(transaction, receivedAt, custom);
  if (!chosen.ok) return unpricedBecause(chosen.reason);
  return { pricing: priceTransaction(transaction, chosen.card), card: chosen.card };
}
