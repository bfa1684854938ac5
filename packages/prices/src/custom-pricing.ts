import { isDecimalString, PROVIDERS, REQUEST_TYPES } from "@usage-ingestion/shared";
import * as v from "valibot";
import { FLAT_PRICE_COMPONENT_KEYS, type FlatPriceComponent, PRICE_COMPONENT_KEYS } from "./price-components.ts";

/**
 * An organization's own prices, set with `npm run admin -- pricing set <org> <file.json>`. All amounts
 * are USD, as decimal strings (or JSON numbers, read through their decimal text). Unknown keys are
 * refused, so a misspelt price is an error when set rather than a zero when billed.
 */
const usd = v.pipe(
  v.union([v.string(), v.number()], "must be a decimal amount in USD"),
  v.transform((value) => (typeof value === "number" ? String(value) : value.trim())),
  v.check(isDecimalString, 'must be a non-negative decimal amount in USD, like "2.50"'),
);

const perRequestEntries = Object.fromEntries(
  ["default", ...REQUEST_TYPES].map((type) => [type, v.optional(usd)]),
) as Record<"default" | (typeof REQUEST_TYPES)[number], v.OptionalSchema<typeof usd, undefined>>;

/** One optional amount per flat price component, from the components table. */
const flatPrices = Object.fromEntries(FLAT_PRICE_COMPONENT_KEYS.map((key) => [key, v.optional(usd)])) as Record<
  FlatPriceComponent,
  v.OptionalSchema<typeof usd, undefined>
>;

export const CustomPriceSchema = v.strictObject(
  {
    provider: v.picklist(PROVIDERS, `must be one of: ${PROVIDERS.join(", ")}`),
    model: v.pipe(v.string("must be a string"), v.minLength(1, "must not be empty")),
    /** Matches transactions with this `model_tier`; absent, it matches transactions without one. */
    model_tier: v.optional(v.pipe(v.string("must be a string"), v.minLength(1, "must not be empty"))),
    /** Takes effect for transactions received at or after this time; absent, always in effect. */
    effective_from: v.optional(v.pipe(v.string(), v.isoTimestamp("must be an ISO 8601 timestamp"))),
    ...flatPrices,
    /** USD per tool request, by `request_type`; `default` covers requests with no or another type. */
    per_request: v.optional(v.strictObject(perRequestEntries, "must be an object of request types")),
  },
  "must be an object of known price keys",
);

export const CustomPricingFileSchema = v.strictObject(
  {
    prices: v.pipe(
      v.array(CustomPriceSchema, "must be an array of prices"),
      v.check(
        (prices) =>
          new Set(
            prices.map(
              (p) => `${p.provider}\u0000${p.model}\u0000${p.model_tier ?? ""}\u0000${p.effective_from ?? ""}`,
            ),
          ).size === prices.length,
        "must not list the same provider, model, model_tier and effective_from twice",
      ),
    ),
  },
  'must be an object with "prices"',
);

/** The keys one price may have: the price components first, then what says which transactions it is for. */
export const CUSTOM_PRICE_KEYS = [...PRICE_COMPONENT_KEYS, "provider", "model", "model_tier", "effective_from"];
const PER_REQUEST_KEYS = ["default", ...REQUEST_TYPES];

/**
 * The first unknown key of one price (its path within the price, and the message), said so that a
 * misspelling is plain: "unknown price key `input_mtk`; known: input_mtok, ...". Undefined when every key
 * is known.
 */
export function unknownPriceKey(
  price: unknown,
  known: readonly string[] = CUSTOM_PRICE_KEYS,
): { path: string; message: string } | undefined {
  if (typeof price !== "object" || price === null || Array.isArray(price)) return undefined;
  const unknown = Object.keys(price).find((key) => !known.includes(key));
  if (unknown !== undefined) {
    return { path: unknown, message: `unknown price key \`${unknown}\`; known: ${known.join(", ")}` };
  }
  const perRequest = (price as { per_request?: unknown }).per_request;
  if (typeof perRequest !== "object" || perRequest === null || Array.isArray(perRequest)) return undefined;
  const type = Object.keys(perRequest).find((key) => !PER_REQUEST_KEYS.includes(key));
  return type === undefined
    ? undefined
    : {
        path: `per_request.${type}`,
        message: `unknown request type \`${type}\` in per_request; known: ${PER_REQUEST_KEYS.join(", ")}`,
      };
}

export type CustomPrice = v.InferOutput<typeof CustomPriceSchema>;
export type CustomPricingFile = v.InferOutput<typeof CustomPricingFileSchema>;

/** Stored at `custom_pricing/{organization_id}`. */
export interface CustomPricingDocument {
  prices: CustomPrice[];
  updated_at: string;
}
