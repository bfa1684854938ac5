import { identifier, identifierBytes, PROVIDERS, type Provider } from "@usage-ingestion/shared";
import * as v from "valibot";
import { CUSTOM_PRICE_KEYS, CustomPriceSchema } from "./custom-pricing.ts";

/** The vendors the platform list may price (`custom` models have only their organization's prices). */
export const PLATFORM_PROVIDERS = PROVIDERS.filter((provider) => provider !== "custom") as Array<
  Exclude<Provider, "custom">
>;
/** Entries in the platform list: it is one Firestore document, well under its 1 MiB limit at this size. */
export const MAX_PLATFORM_PRICES = 250;
export const MAX_SOURCE_URL_LENGTH = 1000;

/**
 * One entry of the platform-wide price list (`admin pricing catalog add`): an organization price's format
 * (every price component, `model_tier`), for a vendor's model, with the vendor page it was read from
 * (`source_url`) and the instant it takes effect (`effective_from`), both required.
 */
export const PlatformPriceSchema = v.strictObject(
  {
    ...CustomPriceSchema.entries,
    provider: v.picklist(PLATFORM_PROVIDERS, `must be one of: ${PLATFORM_PROVIDERS.join(", ")}`),
    model: v.pipe(identifier, identifierBytes),
    model_tier: v.optional(v.pipe(identifier, identifierBytes)),
    effective_from: v.pipe(v.string("must be an ISO 8601 timestamp"), v.isoTimestamp("must be an ISO 8601 timestamp")),
    source_url: v.pipe(
      v.string("must be the URL of the vendor's page"),
      v.maxLength(MAX_SOURCE_URL_LENGTH, `must be at most ${MAX_SOURCE_URL_LENGTH} characters`),
      v.url("must be the URL of the vendor's page"),
      v.regex(/^https?:\/\//, "must be an http(s) URL of the vendor's page"),
    ),
  },
  "must be an object of known price keys",
);

export const PlatformPricingFileSchema = v.strictObject(
  {
    prices: v.pipe(
      v.array(PlatformPriceSchema, "must be an array of prices"),
      v.maxLength(MAX_PLATFORM_PRICES, `must hold at most ${MAX_PLATFORM_PRICES} prices`),
      v.check(
        (prices) => new Set(prices.map((p) => platformPriceKey(p))).size === prices.length,
        "must not list the same provider, model, model_tier and effective_from twice",
      ),
    ),
  },
  'must be an object with "prices"',
);

/** The keys one platform price may have. */
export const PLATFORM_PRICE_KEYS = [...CUSTOM_PRICE_KEYS, "source_url"];

export type PlatformPrice = v.InferOutput<typeof PlatformPriceSchema>;

/** What names one entry: a new entry with the same key replaces it. */
export const platformPriceKey = (price: Pick<PlatformPrice, "provider" | "model" | "model_tier" | "effective_from">) =>
  [price.provider, price.model, price.model_tier ?? "", new Date(price.effective_from).toISOString()].join("\u0000");

/** Stored at `platform_pricing/current`. */
export interface PlatformPricingDocument {
  prices: PlatformPrice[];
  updated_at: string;
}
