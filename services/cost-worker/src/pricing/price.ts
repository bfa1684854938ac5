import type { Transaction } from "@usage-ingestion/shared";
import { type PricingResult, priceTransaction } from "./price-transaction.ts";
import { type CustomPricing, rateCardFor } from "./rate-card.ts";
import type { RateCard } from "./rates.ts";

/** Chooses the rates and prices the transaction with them: what the worker and re-pricing both do. */
export function priceAt(
  transaction: Transaction,
  receivedAt: Date,
  custom: CustomPricing | null,
): { pricing: PricingResult; card: RateCard | null } {
  const chosen = rateCardFor(transaction, receivedAt, custom);
  if (!chosen.ok) return { pricing: { status: "unpriced", unpriced_reason: chosen.reason }, card: null };
  return { pricing: priceTransaction(transaction, chosen.card), card: chosen.card };
}
