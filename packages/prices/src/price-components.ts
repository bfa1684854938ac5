import type { UsageType } from "@usage-ingestion/shared";

/**
 * Every price component the service knows: the one table behind the custom-price schema, the rate cards,
 * the catalog mapping and the line items. Adding a component is one row here plus its rate where it is
 * priced; a row that nothing measures or prices fails `price-components` tests.
 */
export interface PriceComponentInfo {
  /** The usage type whose metrics it prices. */
  usage: UsageType;
  /** The line item's `component` name (a request's own type for `per_request`). */
  item: string;
  /** What one unit is, on the line item. */
  unit: "token" | "image" | "second" | "request" | "source" | "unit";
  /** How many units a custom price is for: USD per 1,000,000 tokens, per image, per second... */
  per: number;
  /** Priced at this component's rate when the model has none of its own (cached input at the input rate). */
  fallback?: string;
  /** The catalog's key for it, when the catalog carries it. */
  catalogKey?: string;
  /** Fills "no <noun> price for ...". */
  noun: string;
  /** For help texts and docs/pricing.md. */
  description: string;
}

export const PRICE_COMPONENTS = {
  input_mtok: {
    usage: "tokens",
    item: "input",
    unit: "token",
    per: 1_000_000,
    catalogKey: "input_mtok",
    noun: "input token",
    description: "USD per million input tokens (not cached)",
  },
  cache_read_mtok: {
    usage: "tokens",
    item: "cache_read",
    unit: "token",
    per: 1_000_000,
    fallback: "input_mtok",
    catalogKey: "cache_read_mtok",
    noun: "cache read",
    description: "USD per million input tokens read from the cache; absent, input_mtok",
  },
  cache_write_mtok: {
    usage: "tokens",
    item: "cache_write",
    unit: "token",
    per: 1_000_000,
    fallback: "input_mtok",
    catalogKey: "cache_write_mtok",
    noun: "cache write",
    description: "USD per million input tokens written to the cache (five-minute lifetime); absent, input_mtok",
  },
  input_audio_mtok: {
    usage: "tokens",
    item: "input_audio",
    unit: "token",
    per: 1_000_000,
    fallback: "input_mtok",
    catalogKey: "input_audio_mtok",
    noun: "audio input token",
    description: "USD per million audio input tokens (not cached); absent, input_mtok",
  },
  input_image_mtok: {
    usage: "tokens",
    item: "input_image",
    unit: "token",
    per: 1_000_000,
    fallback: "input_mtok",
    catalogKey: "input_image_mtok",
    noun: "image input token",
    description: "USD per million image input tokens (not cached); absent, input_mtok",
  },
  cache_audio_read_mtok: {
    usage: "tokens",
    item: "cache_read_audio",
    unit: "token",
    per: 1_000_000,
    fallback: "cache_read_mtok",
    catalogKey: "cache_audio_read_mtok",
    noun: "cached audio",
    description: "USD per million audio input tokens read from the cache; absent, cache_read_mtok",
  },
  cache_image_read_mtok: {
    usage: "tokens",
    item: "cache_read_image",
    unit: "token",
    per: 1_000_000,
    fallback: "cache_read_mtok",
    catalogKey: "cache_image_read_mtok",
    noun: "cached image",
    description: "USD per million image input tokens read from the cache; absent, cache_read_mtok",
  },
  cache_write_1h_mtok: {
    usage: "tokens",
    item: "cache_write_1h",
    unit: "token",
    per: 1_000_000,
    catalogKey: "cache_write_1h_mtok",
    noun: "one-hour cache write",
    description: "USD per million input tokens written to the cache with the one-hour lifetime (no fallback)",
  },
  output_mtok: {
    usage: "tokens",
    item: "output",
    unit: "token",
    per: 1_000_000,
    catalogKey: "output_mtok",
    noun: "output token",
    description: "USD per million output tokens",
  },
  output_audio_mtok: {
    usage: "tokens",
    item: "output_audio",
    unit: "token",
    per: 1_000_000,
    fallback: "output_mtok",
    catalogKey: "output_audio_mtok",
    noun: "audio output token",
    description: "USD per million audio output tokens; absent, output_mtok",
  },
  output_image_mtok: {
    usage: "tokens",
    item: "output_image",
    unit: "token",
    per: 1_000_000,
    fallback: "output_mtok",
    catalogKey: "output_image_mtok",
    noun: "image output token",
    description: "USD per million image output tokens; absent, output_mtok",
  },
  reasoning_mtok: {
    usage: "tokens",
    item: "reasoning",
    unit: "token",
    per: 1_000_000,
    fallback: "output_mtok",
    noun: "reasoning",
    description: "USD per million reasoning/thinking tokens; absent, output_mtok",
  },
  image: {
    usage: "images",
    item: "generated",
    unit: "image",
    per: 1,
    noun: "image",
    description: "USD per image generated",
  },
  audio_input_second: {
    usage: "audio_seconds",
    item: "input",
    unit: "second",
    per: 1,
    noun: "audio input",
    description: "USD per second of audio input",
  },
  audio_output_second: {
    usage: "audio_seconds",
    item: "output",
    unit: "second",
    per: 1,
    noun: "audio output",
    description: "USD per second of audio output",
  },
  audio_second: {
    usage: "audio_seconds",
    item: "total",
    unit: "second",
    per: 1,
    noun: "audio",
    description: "USD per second of audio, when only a total (or no per-side price) applies",
  },
  video_second: {
    usage: "video_seconds",
    item: "processed",
    unit: "second",
    per: 1,
    noun: "video",
    description: "USD per second of video processed",
  },
  per_request: {
    usage: "requests",
    item: "request",
    unit: "request",
    per: 1,
    noun: "request",
    description: "USD per tool request, by request_type; `default` covers requests with no or another type",
  },
  source_used: {
    usage: "requests",
    item: "sources_used",
    unit: "source",
    per: 1,
    noun: "per-source",
    description: "USD per source used (live search)",
  },
  unit: {
    usage: "custom",
    item: "units",
    unit: "unit",
    per: 1,
    noun: "custom unit",
    description: "USD per custom unit",
  },
} as const satisfies Record<string, PriceComponentInfo>;

export type PriceComponent = keyof typeof PRICE_COMPONENTS;
export const PRICE_COMPONENT_KEYS = Object.keys(PRICE_COMPONENTS) as PriceComponent[];

export const priceComponent = (key: PriceComponent): PriceComponentInfo => PRICE_COMPONENTS[key];

/** Components priced by one amount (all but `per_request`, which has one amount per request type). */
export type FlatPriceComponent = Exclude<PriceComponent, "per_request">;
export const FLAT_PRICE_COMPONENT_KEYS = PRICE_COMPONENT_KEYS.filter(
  (key): key is FlatPriceComponent => key !== "per_request",
);
