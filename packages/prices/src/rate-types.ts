import type { Decimal } from "@usage-ingestion/shared";
import type { PriceComponent } from "./price-components.ts";

/** A price for `per` units of something (tokens, images, seconds, requests...), with where it came from. */
export interface Rate {
  price: Decimal;
  per: number;
  unit: string;
  source: string;
}

/** A long-context price: above `start` prompt tokens, the whole call is billed at that tier's price. */
export interface TieredRate {
  base: Rate;
  tiers: Array<{ start: number; rate: Rate }>;
}

export interface ImageRequest {
  quality?: string;
  width?: number;
  height?: number;
}

/**
 * Every price one transaction may need, by price component, chosen for that transaction (its image size
 * and quality, its request type) from the catalog plus our price table, from the platform list, or from
 * the organization's custom price. The pricer itself does no look-ups.
 */
export interface RateCard {
  source: "catalog" | "custom" | "platform";
  /** Catalog version, or the custom price's (or platform list's) update time. */
  version: string;
  /** The catalog's model id, or the custom or platform price's model. */
  model: string;
  rates: Partial<Record<PriceComponent, Rate | TieredRate>>;
  /** A long-context tier the vendor has but whose rates we have not read: a longer prompt stays unpriced. */
  unknownAbove?: { above: number; reason: string };
  /** Components the vendor bills at rates we have not read: usage billed at them stays unpriced. */
  unknownRates?: readonly UnknownRate[];
}

/**
 * A component the vendor's page shows it bills but whose rate we could not read (above `above` prompt
 * tokens only, when given): tokens billed at it leave the transaction unpriced, never at another rate.
 */
export interface UnknownRate {
  component: PriceComponent;
  above?: number;
  reason: string;
}

export const isTiered = (rate: Rate | TieredRate): rate is TieredRate => "tiers" in rate;

export function rateAt(rate: Rate | TieredRate, promptTokens: number): Rate {
  if (!isTiered(rate)) return rate;
  let chosen = rate.base;
  for (const tier of rate.tiers) if (promptTokens > tier.start) chosen = tier.rate;
  return chosen;
}
