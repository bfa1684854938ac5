import type { Provider } from "@usage-ingestion/shared";
import type { FlatPriceComponent } from "../price-components.ts";
import type { UnknownRate } from "../rate-types.ts";

/**
 * Our own price table, as loaded from the data files (`providers/<vendor>.json`): what the catalog lacks or has
 * wrong. Every entry names the vendor page it was read from and the date of that reading (`page()`), and the
 * instant it took effect;
 * superseded prices stay, as dated entries. Model ids are as `resolveModel` spells them (lower case, no
 * `models/` or region prefix); `"prefix*"` matches every id that starts with the prefix, `"*"` every model.
 */
export const page = (url: string, read: string) =>
  `${url} (${/^\d{4}-\d{2}-\d{2}$/.test(read) ? `read ${read}` : read})`;

/** Token components our table may price. */
export type TokenComponent = Exclude<
  FlatPriceComponent,
  "image" | "audio_input_second" | "audio_output_second" | "audio_second" | "video_second" | "source_used" | "unit"
>;

/** USD per million tokens, per component. */
export type TokenRates = Partial<Record<TokenComponent, string>>;

/** Token prices for some models, standard tier unless `tier` says otherwise. */
export interface TokenPrices {
  provider: Provider;
  models: readonly string[];
  /** ISO instant from which this entry is in effect. */
  effectiveFrom: string;
  /** In effect until (not at) this instant; absent, until a newer entry for the same models. */
  until?: string;
  /** A daily window, UTC "HH:MM" start (inclusive) and end (exclusive); it may wrap midnight. */
  hoursUtc?: readonly [string, string];
  /** With `hoursUtc`: only on these UTC weekdays (0 Sunday ... 6 Saturday); absent, every day. */
  weekdaysUtc?: readonly number[];
  /** With `hoursUtc`: never on these UTC dates (YYYY-MM-DD), such as the vendor's public holidays. */
  exceptDatesUtc?: readonly string[];
  /** Prices of this `model_tier` (written as normaliseTier does); absent, the standard tier. */
  tier?: string;
  source: string;
  /** Replaces these components of the catalog's rates (others stay the catalog's). */
  rates?: TokenRates;
  /** Whole call at these rates when the prompt has more than `above` tokens. */
  longContext?: { above: number; rates: TokenRates };
  /**
   * The vendor page's long-context threshold where the catalog's differs: the catalog's long-context tiers
   * (rates unchanged) start above this many prompt tokens instead.
   */
  longContextAbove?: number;
  /** The vendor prices prompts above this size higher, at rates we have not read: those stay unpriced. */
  unknownAbove?: { above: number; reason: string };
  /**
   * Components the vendor bills at rates no page we read states (`above`: only in its long-context tier):
   * they replace the same components of older entries and the catalog, and their usage stays unpriced.
   */
  unknownRates?: readonly (UnknownRate & { component: TokenComponent })[];
  /** The price is known to have changed but no vendor copy of the new one was read: stays unpriced. */
  unpriced?: string;
}

/** A service tier priced as a multiple of the standard rates. */
export interface TierRule {
  provider: Provider;
  tier: string;
  models: readonly string[];
  effectiveFrom: string;
  until?: string;
  /** Multiplier for every token component... */
  factor: string;
  /** ...except these. */
  factors?: TokenRates;
  source: string;
}

/** Per-image, per-second and per-request prices. */
export interface UnitPrice {
  provider: Provider;
  model: string;
  kind: "image" | "audio_second" | "video_second" | `request:${string}` | "source_used";
  /** For images: the quality and the largest side (px) this price covers; absent, any. */
  quality?: string;
  maxSide?: number;
  minSide?: number;
  usd: string;
  /** How many units `usd` is for (60 for a per-minute price); absent, 1. */
  per?: number;
  effectiveFrom: string;
  source: string;
}

export interface VendorTable {
  units: readonly UnitPrice[];
  tokens: readonly TokenPrices[];
  tiers: readonly TierRule[];
}
