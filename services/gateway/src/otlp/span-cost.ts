import { picosToUsd, roundedProviderCost } from "@usage-ingestion/shared";
import type { DecodedSpan } from "./decode.ts";
import { COST_ATTRIBUTES } from "./dialects.ts";

/**
 * The cost the span reports for the call, as `provider_cost` (twelve places, the double rounded half up):
 * from the first cost attribute present. An amount in another currency than USD, or one that is no
 * amount we keep (negative, too large, not a number), gives none: the call is billed all the same, and
 * the attribute stays in `provider_usage_raw`.
 */
export function providerCostOf(span: DecodedSpan): { provider_cost?: string } {
  for (const { attribute, currencyAttribute } of COST_ATTRIBUTES) {
    const amount = span.attributes.get(attribute);
    if (amount === undefined) continue;
    if (currencyAttribute !== undefined) {
      const currency = span.attributes.get(currencyAttribute);
      if (typeof currency !== "string" || currency.trim().toUpperCase() !== "USD") return {};
    }
    const picos = roundedProviderCost(amount);
    return picos === null ? {} : { provider_cost: picosToUsd(picos) };
  }
  return {};
}
