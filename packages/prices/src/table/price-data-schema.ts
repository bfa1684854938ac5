import * as v from "valibot";

/**
 * The format of our price data (`providers/<vendor>.json`, one file per vendor; JSON Schema in
 * `providers/.schema.json`, generated from this): the catalog's keys (`input_mtok`, `cache_write_mtok`, ...,
 * as in pydantic/genai-prices' `prices/providers/*.yml`), the instant each row takes effect, its windows and
 * tiers, and for every row the vendor page and the date (or the copy) it was read from.
 */
const TOKEN_KEYS = [
  "input_mtok",
  "cache_read_mtok",
  "cache_write_mtok",
  "cache_write_1h_mtok",
  "output_mtok",
  "input_audio_mtok",
  "cache_audio_read_mtok",
  "output_audio_mtok",
  "input_image_mtok",
  "cache_image_read_mtok",
  "output_image_mtok",
  "reasoning_mtok",
] as const;
export type DataTokenKey = (typeof TOKEN_KEYS)[number];

const text = (max: number) => v.pipe(v.string(), v.minLength(1), v.maxLength(max));
/** A decimal amount as text, never a float: `"0.125"`. */
const usd = v.pipe(v.string(), v.regex(/^\d{1,6}(\.\d{1,12})?$/, "must be a decimal amount such as 0.125"));
/** An ISO date or instant: `2026-06-09` or `2026-02-17T08:00:00Z`. */
const instant = v.pipe(
  v.string(),
  v.regex(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?(\.\d+)?Z)?$/, "must be an ISO date or UTC instant"),
);
const count = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(100_000_000));
const hhmm = v.pipe(v.string(), v.regex(/^([01]\d|2[0-3]):[0-5]\d$/, "must be HH:MM"));
const modelId = text(200);

/**
 * The vendor page a row was read from, and when: `read` is the date (YYYY-MM-DD) or a description of the copy;
 * absent only on an `unpriced` row that says no copy was read.
 */
const SourceSchema = v.strictObject({ page: text(500), read: v.optional(text(300)) });

const RatesSchema = v.strictObject(
  Object.fromEntries(TOKEN_KEYS.map((key) => [key, v.optional(usd)])) as {
    [K in DataTokenKey]: v.OptionalSchema<typeof usd, undefined>;
  },
);

const TokenRowSchema = v.strictObject({
  models: v.pipe(v.array(modelId), v.minLength(1), v.maxLength(50)),
  effective_from: instant,
  until: v.optional(instant),
  hours_utc: v.optional(v.tuple([hhmm, hhmm])),
  weekdays_utc: v.optional(v.array(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(6)))),
  except_dates_utc: v.optional(v.array(instant)),
  tier: v.optional(text(50)),
  source: SourceSchema,
  prices: v.optional(RatesSchema),
  long_context: v.optional(v.strictObject({ above: count, prices: RatesSchema })),
  long_context_above: v.optional(count),
  unknown_above: v.optional(v.strictObject({ above: count, reason: text(1000) })),
  unknown_prices: v.optional(
    v.array(v.strictObject({ component: v.picklist(TOKEN_KEYS), above: v.optional(count), reason: text(1000) })),
  ),
  unpriced: v.optional(text(1000)),
});

const TierRowSchema = v.strictObject({
  tier: text(50),
  models: v.pipe(v.array(modelId), v.minLength(1), v.maxLength(50)),
  effective_from: instant,
  until: v.optional(instant),
  factor: usd,
  factors: v.optional(RatesSchema),
  source: SourceSchema,
});

const UnitRowSchema = v.strictObject({
  model: modelId,
  kind: v.union([
    v.picklist(["image", "audio_second", "video_second", "source_used"]),
    v.pipe(v.string(), v.regex(/^request:[a-z_]{1,50}$/, "must be request:<request type>")),
  ]),
  quality: v.optional(text(50)),
  max_side: v.optional(count),
  min_side: v.optional(count),
  usd,
  per: v.optional(v.pipe(count, v.minValue(1))),
  effective_from: instant,
  source: SourceSchema,
});

const AliasSchema = v.strictObject({
  alias: modelId,
  source: SourceSchema,
  changes: v.array(v.strictObject({ from: instant, model: modelId, source: SourceSchema })),
});

export const PriceDataSchema = v.strictObject({
  $schema: v.optional(v.string()),
  provider: v.picklist(["openai", "anthropic", "bedrock", "gemini", "xai", "deepseek"]),
  aliases: v.array(AliasSchema),
  tokens: v.array(TokenRowSchema),
  tiers: v.array(TierRowSchema),
  units: v.array(UnitRowSchema),
});
export type PriceData = v.InferOutput<typeof PriceDataSchema>;
export type DataSource = v.InferOutput<typeof SourceSchema>;
