import { decimal, multiply, type Provider } from "@usage-ingestion/shared";
import { type CatalogModel, catalogModel } from "./catalog.ts";
import { isTiered, type Rate, type RateCard, type TieredRate } from "./rate-types.ts";
import { resolveAlias } from "./resolve-alias.ts";
import { resolveModel } from "./resolve-model.ts";
import { tableKnows, tableTokens, tierFactor, tierRule, tiersOf } from "./table/index.ts";
import type { TierRule } from "./table/types.ts";

/** The reason's first word for a model id no price source names (reports group on it). */
export const UNKNOWN_MODEL = "unknown_model";

export type VendorProvider = Exclude<Provider, "custom">;

/** Tiers that mean the ordinary price. */
export const STANDARD_TIERS = new Set(["standard", "default", "on_demand"]);

/** `model_tier` as the table spells it: lower case, `-` and spaces as `_` (`latency-optimized`). */
export const normaliseTier = (tier: string) =>
  tier
    .trim()
    .toLowerCase()
    .replace(/[-\s]+/g, "_");

export interface VendorTokenRates {
  /** The catalog's id for the model, else our table's. */
  modelId: string;
  /** The ids our table matched the model on. */
  names: string[];
  tokens: RateCard["rates"];
  unknownAbove?: RateCard["unknownAbove"];
  unknownRates?: RateCard["unknownRates"];
  /** Per-request prices the catalog lists (web and file searches). */
  catalogRequests: Record<string, Rate>;
}

export type VendorTokenResult = { ok: true; value: VendorTokenRates } | { ok: false; reason: string };

function firstInCatalog(provider: VendorProvider, ids: string[], at: Date): CatalogModel | null {
  for (const id of ids) {
    const found = catalogModel(provider, id, at);
    if (found) return found;
  }
  return null;
}

/**
 * The token prices of a vendor's model at `at` for a `model_tier`: the catalog's, overridden component by
 * component by our table; then the tier's own prices where the table lists them, else the tier's
 * multiplier on the standard prices (long-context tiers included), else nothing: unpriced with the reason.
 */
export function vendorTokenRates(provider: VendorProvider, model: string, at: Date, tier?: string): VendorTokenResult {
  const named = resolveModel(provider, model);
  if (!named.ok) return named;
  const alias = resolveAlias(provider, named.catalogId, at);
  if (alias.kind === "unresolved") return { ok: false, reason: alias.reason };
  const resolved = alias.kind === "model" ? resolveModel(provider, alias.change.model) : named;
  if (!resolved.ok) return resolved;
  const catalog = firstInCatalog(provider, [resolved.catalogId, ...resolved.names], at);
  const names = catalog ? [...resolved.names, catalog.modelId] : resolved.names;
  if (!catalog && !tableKnows(provider, names)) {
    return {
      ok: false,
      reason: `${UNKNOWN_MODEL}: ${provider} model "${model}" is not in the pricing catalog or our price table under its own id and has no custom price`,
    };
  }
  const standard = tableTokens(provider, names, at);
  if (standard.kind === "unpriced") return { ok: false, reason: `${provider} model "${model}": ${standard.reason}` };
  const merged: RateCard["rates"] = { ...catalog?.tokens, ...(standard.kind === "rates" ? standard.rates : {}) };
  const threshold = standard.kind === "rates" ? standard.longContextAbove : undefined;
  const base = threshold ? startingAbove(merged, threshold) : merged;
  const unknownAbove = standard.kind === "rates" ? standard.unknownAbove : undefined;
  const unknownRates = standard.kind === "rates" ? standard.unknownRates : undefined;
  const value = (tokens: RateCard["rates"], unknown = unknownRates, above = unknownAbove): VendorTokenResult => ({
    ok: true,
    value: {
      modelId: catalog?.modelId ?? (names.find((name) => tableKnows(provider, [name])) as string),
      names,
      tokens,
      ...(above ? { unknownAbove: above } : {}),
      ...(unknown ? { unknownRates: unknown } : {}),
      catalogRequests: catalog?.requests ?? {},
    },
  });

  const tierName = tier === undefined ? undefined : normaliseTier(tier);
  if (tierName === undefined || STANDARD_TIERS.has(tierName)) return value(base);
  const own = tableTokens(provider, names, at, tierName);
  // A tier with prices of its own: its rates we have not read are its own too.
  if (own.kind === "rates") return value(own.rates, own.unknownRates ?? [], own.unknownAbove ?? unknownAbove);
  if (own.kind === "unpriced") return { ok: false, reason: `${provider} model "${model}": ${own.reason}` };
  const rule = tierRule(provider, tierName, names, at);
  if (rule) {
    const tokens: RateCard["rates"] = {};
    for (const [key, rate] of Object.entries(base)) {
      tokens[key as keyof typeof tokens] = scaled(rate, rule, key);
    }
    return value(tokens);
  }
  return {
    ok: false,
    reason: `no price for model_tier "${tier}" of ${provider} model "${model}" at ${at.toISOString()} (tiers with published prices for ${provider}: ${["standard", ...tiersOf(provider)].join(", ")})`,
  };
}

/** A single long-context tier moved to start above the vendor page's threshold (its rates unchanged). */
function startingAbove(rates: RateCard["rates"], threshold: { above: number; source: string }): RateCard["rates"] {
  const moved: RateCard["rates"] = {};
  for (const [key, rate] of Object.entries(rates) as Array<[keyof RateCard["rates"], Rate | TieredRate]>) {
    moved[key] =
      isTiered(rate) && rate.tiers.length === 1
        ? {
            base: rate.base,
            tiers: rate.tiers.map((tier) => ({
              start: threshold.above,
              rate: { ...tier.rate, source: `${tier.rate.source} (above ${threshold.above} per ${threshold.source})` },
            })),
          }
        : rate;
  }
  return moved;
}

function scaled(rate: Rate | TieredRate, rule: TierRule, component: string): Rate | TieredRate {
  const factor = tierFactor(rule, component);
  const apply = (r: Rate): Rate => ({
    ...r,
    price: multiply(r.price, decimal(factor)),
    source: `${r.source}; ${rule.tier} tier x${factor} per ${rule.source} (effective ${rule.effectiveFrom})`,
  });
  return isTiered(rate)
    ? { base: apply(rate.base), tiers: rate.tiers.map((tier) => ({ start: tier.start, rate: apply(tier.rate) })) }
    : apply(rate);
}
