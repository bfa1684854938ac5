import { decimal, type Transaction } from "@usage-ingestion/shared";
import { CATALOG_VERSION } from "./catalog.ts";
import type { CustomPrice } from "./custom-pricing.ts";
import { platformPriceFor } from "./find-platform-price.ts";
import type { PlatformPrice } from "./platform-pricing.ts";
import { FLAT_PRICE_COMPONENT_KEYS, PRICE_COMPONENTS } from "./price-components.ts";
import type { ImageRequest, RateCard } from "./rate-types.ts";
import { vendorTokenRates } from "./read-vendor-rates.ts";
import { unitRates } from "./table/units.ts";

export interface CustomPricing {
  prices: CustomPrice[];
  updatedAt: string;
}

/** The platform-wide price list (`admin pricing catalog`), as stored. */
export interface PlatformPricing {
  prices: PlatformPrice[];
  updatedAt: string;
}

export type RateCardResult = { ok: true; card: RateCard } | { ok: false; reason: string };

/**
 * Chooses where a transaction's prices come from, as of its receive time: the organization's custom
 * price for its provider, model and tier when there is one; otherwise (never for `custom`) the platform
 * list's price for the model and tier; otherwise the vendor's published prices: our price table (table/),
 * over the catalog, for the tier.
 */
export function rateCardFor(
  transaction: Transaction,
  receivedAt: Date,
  custom: CustomPricing | null,
  platform: PlatformPricing | null = null,
): RateCardResult {
  const tier = transaction.model_tier;
  const own = custom ? customPriceFor(custom.prices, transaction, receivedAt) : undefined;
  if (own && custom) return { ok: true, card: customRateCard(own, custom.updatedAt, transaction) };
  const tierText = tier ? ` tier "${tier}"` : "";
  if (transaction.provider === "custom") {
    return {
      ok: false,
      reason: `no custom price for custom model "${transaction.model}"${tierText} in effect at ${receivedAt.toISOString()}`,
    };
  }
  const listed = platform ? platformPriceFor(platform.prices, transaction, receivedAt) : undefined;
  if (listed && platform) {
    const source = `platform price ${describeEntry(listed)} from ${listed.source_url} (updated ${platform.updatedAt})`;
    return { ok: true, card: flatRateCard(listed, source, transaction, "platform", platform.updatedAt) };
  }

  const vendor = vendorTokenRates(transaction.provider, transaction.model, receivedAt, tier);
  if (!vendor.ok) return vendor;
  const { modelId, names, tokens, catalogRequests, unknownAbove, unknownRates } = vendor.value;
  const units = unitRates(transaction.provider, names, receivedAt);
  const rates: RateCard["rates"] = { ...tokens };
  const requestType = requestTypeOf(transaction);
  const images = imagesOf(transaction);
  Object.assign(
    rates,
    definedOnly({
      image: images && units.image?.(images),
      audio_second: units.audioSecond,
      video_second: units.videoSecond,
      source_used: units.sourceUsed,
      per_request: requestType && (units.requests[requestType] ?? catalogRequests[requestType]),
    }),
  );
  return {
    ok: true,
    card: {
      source: "catalog",
      version: CATALOG_VERSION,
      model: modelId,
      rates,
      ...(unknownAbove ? { unknownAbove } : {}),
      ...(unknownRates ? { unknownRates } : {}),
    },
  };
}

/** The request type a transaction's `requests` entry bills (`default` when it names none). */
function requestTypeOf(transaction: Transaction): string | undefined {
  const entry = transaction.usage.find((item) => item.type === "requests");
  return entry?.type === "requests" ? (entry.metrics.request_type ?? "default") : undefined;
}

/** The size and quality a transaction's `images` entry asks a price for. */
function imagesOf(transaction: Transaction): ImageRequest | undefined {
  const entry = transaction.usage.find((item) => item.type === "images");
  if (entry?.type !== "images") return undefined;
  const { quality, size_px, width_px, height_px } = entry.metrics;
  return { quality, width: width_px ?? size_px, height: height_px ?? size_px };
}

function definedOnly<T extends Record<string, unknown>>(
  values: T,
): Partial<{ [K in keyof T]: Exclude<T[K], undefined> }> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<{
    [K in keyof T]: Exclude<T[K], undefined>;
  }>;
}

/** Same provider, model and tier (none matches none); the newest `effective_from` not after receipt. */
export function customPriceFor(
  prices: readonly CustomPrice[],
  transaction: Pick<Transaction, "provider" | "model" | "model_tier">,
  receivedAt: Date,
): CustomPrice | undefined {
  const at = receivedAt.toISOString();
  return prices
    .filter(
      (price) =>
        price.provider === transaction.provider &&
        price.model === transaction.model &&
        (price.model_tier ?? null) === (transaction.model_tier ?? null) &&
        (price.effective_from === undefined || new Date(price.effective_from).toISOString() <= at),
    )
    .sort((a, b) => (a.effective_from ?? "").localeCompare(b.effective_from ?? ""))
    .at(-1);
}

/** Names a custom or platform price entry in a line item's source. */
const describeEntry = (price: CustomPrice) =>
  `${price.provider}/${price.model}${price.model_tier ? ` tier ${price.model_tier}` : ""}${
    price.effective_from ? ` effective ${price.effective_from}` : ""
  }`;

function customRateCard(price: CustomPrice, updatedAt: string, transaction: Transaction): RateCard {
  const source = `custom price ${describeEntry(price)} (updated ${updatedAt})`;
  return flatRateCard(price, source, transaction, "custom", updatedAt);
}

/** A rate card of one entry's flat prices (an organization's or the platform list's): its only source. */
function flatRateCard(
  price: CustomPrice,
  source: string,
  transaction: Transaction,
  from: "custom" | "platform",
  updatedAt: string,
): RateCard {
  const rates: RateCard["rates"] = {};
  for (const key of FLAT_PRICE_COMPONENT_KEYS) {
    const usd = price[key];
    const { per, unit } = PRICE_COMPONENTS[key];
    if (usd !== undefined) rates[key] = { price: decimal(usd), per, unit, source };
  }
  const requestType = requestTypeOf(transaction);
  const perRequest = price.per_request as Record<string, string | undefined> | undefined;
  const requestUsd = requestType && (perRequest?.[requestType] ?? perRequest?.default);
  if (requestUsd) rates.per_request = { price: decimal(requestUsd), per: 1, unit: "request", source };
  return { source: from, version: updatedAt, model: price.model, rates };
}
