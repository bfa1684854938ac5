import {
  decimal,
  formatDecimal,
  type LineItem,
  multiply,
  nanosToUsd,
  type Transaction,
  toNanosPer,
  type UsageType,
} from "@usage-ingestion/shared";
import { type Measured, measure } from "./measure-usage.ts";
import { PRICE_COMPONENTS, type PriceComponent, type PriceComponentInfo } from "./price-components.ts";
import { type Rate, type RateCard, rateAt, type UnknownRate } from "./rate-types.ts";

export type PricingResult =
  | { status: "priced"; line_items: LineItem[]; cost_nanos: bigint }
  | { status: "unpriced"; unpriced_reason: string };

class Unpriceable extends Error {}

/** Usage in, line items out: pure, exact, and never a silent zero. */
export function priceTransaction(transaction: Transaction, card: RateCard): PricingResult {
  const what = `${transaction.provider} model "${transaction.model}"${card.source === "custom" ? " (custom price)" : ""}`;
  try {
    const items: LineItem[] = [];
    for (const entry of transaction.usage) {
      const measured = measure(transaction.provider, entry, card);
      if (!measured.ok) throw new Unpriceable(measured.reason);
      if (card.unknownAbove && measured.promptTokens > card.unknownAbove.above) {
        throw new Unpriceable(
          `no long-context price for ${what} above ${card.unknownAbove.above} prompt tokens (this prompt: ${measured.promptTokens}): ${card.unknownAbove.reason}`,
        );
      }
      for (const part of measured.parts) {
        const unknown = part.quantity > 0 ? unknownRateFor(card, part.component, measured.promptTokens) : undefined;
        if (unknown) {
          throw new Unpriceable(
            `no ${PRICE_COMPONENTS[part.component].noun} price for ${what}${unknown.above === undefined ? "" : ` above ${unknown.above} prompt tokens (this prompt: ${measured.promptTokens})`}: ${unknown.reason}`,
          );
        }
        const item = lineItem(entry.type, part, rateFor(card, part.component, measured.promptTokens), what);
        if (item) items.push(item);
      }
    }
    const total = items.reduce((sum, item) => sum + BigInt(item.cost_nanos), 0n);
    return { status: "priced", line_items: items, cost_nanos: total };
  } catch (error) {
    if (error instanceof Unpriceable) return { status: "unpriced", unpriced_reason: error.message };
    throw error;
  }
}

/**
 * The component's own rate, or its fallback's, and so on (cached audio at the cached rate, else the input
 * rate), at the prompt's tier.
 */
export function rateFor(card: RateCard, component: PriceComponent, promptTokens: number): Rate | undefined {
  for (let key: PriceComponent | undefined = component; key; ) {
    const found = card.rates[key];
    if (found) return rateAt(found, promptTokens);
    const info: PriceComponentInfo = PRICE_COMPONENTS[key];
    key = info.fallback as PriceComponent | undefined;
  }
  return undefined;
}

/** The rate the component is billed at (its own, else its fallback's) when that rate is one we have not read. */
function unknownRateFor(card: RateCard, component: PriceComponent, promptTokens: number): UnknownRate | undefined {
  for (let key: PriceComponent | undefined = component; key; ) {
    const unknown = card.unknownRates?.find(
      (entry) => entry.component === key && (entry.above === undefined || promptTokens > entry.above),
    );
    if (unknown) return unknown;
    if (card.rates[key]) return undefined;
    const info: PriceComponentInfo = PRICE_COMPONENTS[key];
    key = info.fallback as PriceComponent | undefined;
  }
  return undefined;
}

function lineItem(usageType: UsageType, part: Measured, rate: Rate | undefined, what: string): LineItem | undefined {
  if (part.quantity === 0) return undefined;
  const info = PRICE_COMPONENTS[part.component];
  if (!rate) throw new Unpriceable(part.missing?.(what) ?? `no ${info.noun} price for ${what}${part.detail ?? ""}`);
  const component = part.item ?? info.item;
  const nanos = toNanosPer(multiply(decimal(part.quantity), rate.price), rate.per);
  if (nanos > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new Unpriceable(`${usageType} ${component} costs more than can be recorded exactly`);
  }
  return {
    usage_type: usageType,
    component,
    quantity: part.quantity,
    unit: rate.unit,
    unit_price_usd: formatDecimal(rate.price),
    unit_price_per: rate.per,
    cost_usd: nanosToUsd(nanos),
    cost_nanos: Number(nanos),
    price_source: rate.source,
  };
}
