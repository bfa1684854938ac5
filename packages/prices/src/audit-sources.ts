import type { Provider } from "@usage-ingestion/shared";
import type { PlatformPricing } from "./choose-rate-card.ts";
import { platformPriceFor } from "./find-platform-price.ts";
import { type VendorProvider, vendorTokenRates } from "./read-vendor-rates.ts";
import { tableKnows } from "./table/index.ts";

export { rowsReadBefore, type TableRow } from "./table/read-dates.ts";

/**
 * Where the published prices of a vendor's model come from at `at`: the platform list, our table (a row of
 * the model's own), the catalog alone (the fallback: no page of ours), or nowhere. What `admin pricing
 * audit` sorts models by.
 */
export function publishedSourceOf(
  provider: Provider,
  model: string,
  modelTier: string | null,
  at: Date,
  platform: PlatformPricing | null,
): "platform" | "table" | "catalog" | "none" {
  if (provider === "custom") return "none";
  const transaction = { provider, model, ...(modelTier ? { model_tier: modelTier } : {}) };
  if (platform && platformPriceFor(platform.prices, transaction, at)) return "platform";
  const rates = vendorTokenRates(provider as VendorProvider, model, at, modelTier ?? undefined);
  if (!rates.ok) return "none";
  return tableKnows(provider, rates.value.names) ? "table" : "catalog";
}
