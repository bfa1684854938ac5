import type { Transaction } from "@usage-ingestion/shared";
import type { PlatformPrice } from "./platform-pricing.ts";
import { normaliseTier, STANDARD_TIERS } from "./read-vendor-rates.ts";
import { resolveModel } from "./resolve-model.ts";

/**
 * The platform list's entry for a transaction at its receive time: same provider; the model as the
 * vendor names it (the entry's id, or the id in any of the vendor's forms: `resolveModel`, never a
 * prefix); the same tier (any case, `-` as `_`; none, `standard`, `default` and `on_demand` are one); the
 * newest `effective_from` not after receipt.
 */
export function platformPriceFor(
  prices: readonly PlatformPrice[],
  transaction: Pick<Transaction, "provider" | "model" | "model_tier">,
  receivedAt: Date,
): PlatformPrice | undefined {
  const resolved = resolveModel(transaction.provider, transaction.model);
  if (!resolved.ok) return undefined;
  const names = new Set([resolved.catalogId, ...resolved.names]);
  const tier = tierOf(transaction.model_tier);
  const at = receivedAt.getTime();
  return prices
    .filter(
      (price) =>
        price.provider === transaction.provider &&
        names.has(price.model.trim().toLowerCase()) &&
        tierOf(price.model_tier) === tier &&
        new Date(price.effective_from).getTime() <= at,
    )
    .sort((a, b) => new Date(a.effective_from).getTime() - new Date(b.effective_from).getTime())
    .at(-1);
}

function tierOf(tier: string | undefined): string | undefined {
  const name = tier === undefined ? undefined : normaliseTier(tier);
  return name === undefined || STANDARD_TIERS.has(name) ? undefined : name;
}
