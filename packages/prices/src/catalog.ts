import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { calcPrice, type ModelPrice } from "@pydantic/genai-prices";
import { decimal, type Provider } from "@usage-ingestion/shared";
import { catalogNames } from "./catalog-names.ts";
import {
  PRICE_COMPONENT_KEYS,
  PRICE_COMPONENTS,
  type PriceComponent,
  type PriceComponentInfo,
} from "./price-components.ts";
import type { Rate, TieredRate } from "./rate-types.ts";

/** Our provider names in the catalog's terms. */
export const CATALOG_PROVIDER_IDS: Record<Exclude<Provider, "custom">, string> = {
  openai: "openai",
  anthropic: "anthropic",
  gemini: "google",
  bedrock: "aws",
  xai: "x-ai",
  deepseek: "deepseek",
};

const require = createRequire(import.meta.url);
/** The pinned catalog's package and version, recorded on every priced transaction. */
export const CATALOG_VERSION = `@pydantic/genai-prices@${
  (
    JSON.parse(
      readFileSync(join(dirname(require.resolve("@pydantic/genai-prices")), "..", "package.json"), "utf8"),
    ) as {
      version: string;
    }
  ).version
}`;

export interface CatalogModel {
  modelId: string;
  providerId: string;
  tokens: Partial<Record<PriceComponent, Rate | TieredRate>>;
  /** Per-request prices the catalog lists (web and file searches). */
  requests: Record<string, Rate>;
}

/** The components the catalog carries, by its own key, from the components table. */
const CATALOG_KEYS = PRICE_COMPONENT_KEYS.flatMap((key) => {
  const info: PriceComponentInfo = PRICE_COMPONENTS[key];
  return info.catalogKey ? [[key, info.catalogKey, info.per, info.unit] as const] : [];
});

const REQUEST_KEYS: Array<[string, string]> = [
  ["web_search", "web_searches_kcount"],
  ["file_search", "storage_searches_kcount"],
];

/**
 * Look-ups that read the same at any time, by provider and model name: a name the catalog does not know
 * (matching a name to a model does not depend on the time), or a model with one set of prices for all time.
 * A model whose prices change on a date or with the time of day is looked up each time. Finding a model
 * scans its provider's list, the largest part of pricing a transaction; the catalog is the pinned package's
 * own data, never updated at run time. Names come from requests, so the map is bounded.
 */
const LOOKUPS = new Map<string, CatalogModel | null>();
const MAX_LOOKUPS = 1_000;

/**
 * The model's prices in effect at `at`, from the offline catalog, which also resolves dated ids and
 * Bedrock region prefixes. Null when the catalog does not know the model, or matches it only as a prefix
 * of another model's id (see catalogNames).
 */
export function catalogModel(provider: Exclude<Provider, "custom">, model: string, at: Date): CatalogModel | null {
  const key = `${provider}\u0000${model}`;
  const known = LOOKUPS.get(key);
  if (known !== undefined) return known;
  const { result, timeless } = lookUpCatalog(provider, model, at);
  if (timeless) {
    if (LOOKUPS.size >= MAX_LOOKUPS) LOOKUPS.delete(LOOKUPS.keys().next().value as string);
    LOOKUPS.set(key, result);
  }
  return result;
}

/** catalogModel without the remembered look-ups; `timeless` when the result holds at any time. */
export function lookUpCatalog(provider: Exclude<Provider, "custom">, model: string, at: Date) {
  const providerId = CATALOG_PROVIDER_IDS[provider];
  const id = model.replace(/^models\//, "");
  const found = calcPrice({ input_tokens: 0, output_tokens: 0 }, id, { providerId, timestamp: at });
  const result =
    found &&
    found.provider.id === providerId &&
    catalogNames(provider, { or: [{ starts_with: found.model.id }, found.model.match] }, id)
      ? fromCatalog(found.model.id, providerId, found.model_price)
      : null;
  return { result, timeless: !found || !Array.isArray(found.model.prices) };
}

function fromCatalog(modelId: string, providerId: string, prices: ModelPrice): CatalogModel {
  const source = `${CATALOG_VERSION} ${providerId}/${modelId}`;
  const tokens: CatalogModel["tokens"] = {};
  for (const [key, catalogKey, per, unit] of CATALOG_KEYS) {
    const value = prices[catalogKey];
    if (value !== undefined) tokens[key] = toRate(value, per, unit, source);
  }
  const requests: Record<string, Rate> = {};
  for (const [type, catalogKey] of REQUEST_KEYS) {
    const value = prices[catalogKey];
    if (typeof value === "number") requests[type] = { price: decimal(value), per: 1000, unit: "request", source };
  }
  return frozen({ modelId, providerId, tokens, requests });
}

/** A look-up may be shared by every transaction after it, so nothing may change it. */
function frozen<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) frozen(inner);
    Object.freeze(value);
  }
  return value;
}

function toRate(
  value: number | { base: number; tiers: Array<{ start: number; price: number }> },
  per: number,
  unit: string,
  source: string,
): Rate | TieredRate {
  if (typeof value === "number") return { price: decimal(value), per, unit, source };
  return {
    base: { price: decimal(value.base), per, unit, source },
    tiers: value.tiers.map((tier) => ({
      start: tier.start,
      rate: { price: decimal(tier.price), per, unit, source: `${source} (above ${tier.start} prompt tokens)` },
    })),
  };
}
