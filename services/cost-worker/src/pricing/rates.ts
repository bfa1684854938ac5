import type { Decimal } from "@usage-ingestion/shared";

/** A price for `per` units of something (tokens, images, seconds, requests...), with where it came from. */
export interface Rate {
  price: Decimal;
  per: number;
  unit: string;
  source: string;
}

/** A long-context price: from `start` prompt tokens on, the whole call is billed at that tier's price. */
export interface TieredRate {
  base: Rate;
  tiers: Array<{ start: number; rate: Rate }>;
}

export type TokenRateKey = "input_mtok" | "output_mtok" | "cache_read_mtok" | "cache_write_mtok" | "reasoning_mtok";

export interface ImageRequest {
  quality?: string;
  width?: number;
  height?: number;
}

/**
 * Every price the pricer may need for one transaction. Built from the catalog plus the supplement, or
 * from the organization's custom price; the pricer itself does no look-ups.
 */
export interface RateCard {
  source: "catalog" | "custom";
  /** Catalog version, or the custom price's identity and update time. */
  version: string;
  /** The catalog's model id, or the custom price's model. */
  model: string;
  tokens: Partial<Record<TokenRateKey, Rate | TieredRate>>;
  image?: (request: ImageRequest) => Rate | undefined;
  audioInputSecond?: Rate;
  audioOutputSecond?: Rate;
  audioSecond?: Rate;
  videoSecond?: Rate;
  /** By request type; `default` for requests with no type or one not listed. */
  requests: Partial<Record<string, Rate>>;
  sourceUsed?: Rate;
  unit?: Rate;
}

export const isTiered = (rate: Rate | TieredRate): rate is TieredRate => "tiers" in rate;

export function rateAt(rate: Rate | TieredRate, promptTokens: number): Rate {
  if (!isTiered(rate)) return rate;
  let chosen = rate.base;
  for (const tier of rate.tiers) if (promptTokens > tier.start) chosen = tier.rate;
  return chosen;
}
