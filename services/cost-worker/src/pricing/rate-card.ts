import { type CustomPrice, type Decimal, decimal, multiply, type Transaction } from "@usage-ingestion/shared";
import { CATALOG_VERSION, catalogModel } from "./catalog.ts";
import { isTiered, type Rate, type RateCard, type TieredRate } from "./rates.ts";
import { STANDARD_TIERS, supplementRates, TIER_DISCOUNTS } from "./supplement.ts";

export interface CustomPricing {
  prices: CustomPrice[];
  updatedAt: string;
}

export type RateCardResult = { ok: true; card: RateCard } | { ok: false; reason: string };

/**
 * Chooses where a transaction's prices come from, as of its receive time: the organization's custom
 * price for its provider, model and tier when there is one; otherwise (never for `custom`) the catalog
 * plus the supplement table, with the tier's discount.
 */
export function rateCardFor(transaction: Transaction, receivedAt: Date, custom: CustomPricing | null): RateCardResult {
  const tier = transaction.model_tier;
  const own = custom ? customPriceFor(custom.prices, transaction, receivedAt) : undefined;
  if (own && custom) return { ok: true, card: customRateCard(own, custom.updatedAt) };
  const tierText = tier ? ` tier "${tier}"` : "";
  if (transaction.provider === "custom") {
    return {
      ok: false,
      reason: `no custom price for custom model "${transaction.model}"${tierText} in effect at ${receivedAt.toISOString()}`,
    };
  }

  let discount: { factor: Decimal; source: string } | undefined;
  if (tier && !STANDARD_TIERS.has(tier.toLowerCase())) {
    const known = TIER_DISCOUNTS[transaction.provider]?.[tier.toLowerCase()];
    if (!known) return { ok: false, reason: `no price for model_tier "${tier}" of ${transaction.provider}` };
    discount = { factor: decimal(known.factor), source: known.source };
  }

  const catalog = catalogModel(transaction.provider, transaction.model, receivedAt);
  const supplement = supplementRates(transaction.provider, transaction.model, receivedAt);
  const supplementKnowsModel = Boolean(supplement.image || supplement.audioSecond || supplement.videoSecond);
  if (!catalog && !supplementKnowsModel) {
    return {
      ok: false,
      reason: `unknown model: ${transaction.provider} model "${transaction.model}" is not in the pricing catalog and has no custom price`,
    };
  }
  const tokens: RateCard["tokens"] = {};
  for (const [key, rate] of Object.entries(catalog?.tokens ?? {})) {
    tokens[key as keyof RateCard["tokens"]] = discount ? discounted(rate, discount) : rate;
  }
  return {
    ok: true,
    card: {
      source: "catalog",
      version: CATALOG_VERSION,
      model: catalog?.modelId ?? transaction.model,
      tokens,
      image: supplement.image,
      audioSecond: supplement.audioSecond,
      videoSecond: supplement.videoSecond,
      sourceUsed: supplement.sourceUsed,
      requests: { ...catalog?.requests, ...supplement.requests },
    },
  };
}

function discounted(rate: Rate | TieredRate, discount: { factor: Decimal; source: string }): Rate | TieredRate {
  const apply = (r: Rate): Rate => ({
    ...r,
    price: multiply(r.price, discount.factor),
    source: `${r.source}; tier discount ${discount.source}`,
  });
  return isTiered(rate)
    ? { base: apply(rate.base), tiers: rate.tiers.map((tier) => ({ start: tier.start, rate: apply(tier.rate) })) }
    : apply(rate);
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

function customRateCard(price: CustomPrice, updatedAt: string): RateCard {
  const source = `custom price ${price.provider}/${price.model}${price.model_tier ? ` tier ${price.model_tier}` : ""}${
    price.effective_from ? ` effective ${price.effective_from}` : ""
  } (updated ${updatedAt})`;
  const rate = (usd: string | undefined, per: number, unit: string): Rate | undefined =>
    usd === undefined ? undefined : { price: decimal(usd), per, unit, source };
  const image = rate(price.image, 1, "image");
  const requests: Record<string, Rate> = {};
  for (const [type, usd] of Object.entries(price.per_request ?? {})) {
    const r = rate(usd, 1, "request");
    if (r) requests[type] = r;
  }
  const tokens: RateCard["tokens"] = {};
  for (const key of ["input_mtok", "output_mtok", "cache_read_mtok", "cache_write_mtok", "reasoning_mtok"] as const) {
    const r = rate(price[key], 1_000_000, "token");
    if (r) tokens[key] = r;
  }
  return {
    source: "custom",
    version: updatedAt,
    model: price.model,
    tokens,
    image: image ? () => image : undefined,
    audioInputSecond: rate(price.audio_input_second, 1, "second"),
    audioOutputSecond: rate(price.audio_output_second, 1, "second"),
    audioSecond: rate(price.audio_second, 1, "second"),
    videoSecond: rate(price.video_second, 1, "second"),
    requests,
    sourceUsed: rate(price.source_used, 1, "source"),
    unit: rate(price.unit, 1, "unit"),
  };
}
