import {
  decimal,
  dividePerUnits,
  formatDecimal,
  multiply,
  nanosToUsd,
  type Transaction,
  toNanos,
  type UsageEntry,
} from "@usage-ingestion/shared";
import { type Rate, type RateCard, rateAt, type TokenRateKey } from "./rates.ts";
import { normaliseTokens } from "./tokens.ts";

export interface LineItem {
  usage_type: UsageEntry["type"];
  component: string;
  quantity: number;
  unit: string;
  /** USD for `unit_price_per` units, as a decimal string. */
  unit_price_usd: string;
  unit_price_per: number;
  cost_usd: string;
  cost_nanos: number;
  price_source: string;
}

export type PricingResult =
  | { status: "priced"; line_items: LineItem[]; cost_nanos: bigint }
  | { status: "unpriced"; unpriced_reason: string };

class Unpriceable extends Error {}

/** Usage in, line items out: pure, exact, and never a silent zero. */
export function priceTransaction(transaction: Transaction, card: RateCard): PricingResult {
  try {
    const items = transaction.usage.flatMap((entry) => priceEntry(transaction, entry, card));
    const total = items.reduce((sum, item) => sum + BigInt(item.cost_nanos), 0n);
    return { status: "priced", line_items: items, cost_nanos: total };
  } catch (error) {
    if (error instanceof Unpriceable) return { status: "unpriced", unpriced_reason: error.message };
    throw error;
  }
}

function line(
  usageType: UsageEntry["type"],
  component: string,
  quantity: number,
  rate: Rate | undefined,
  missing: string,
): LineItem[] {
  if (quantity === 0) return [];
  if (!rate) throw new Unpriceable(missing);
  const nanos = toNanos(multiply(decimal(quantity), dividePerUnits(rate.price, rate.per)));
  if (nanos > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new Unpriceable(`${usageType} ${component} costs more than can be recorded exactly`);
  }
  return [
    {
      usage_type: usageType,
      component,
      quantity,
      unit: rate.unit,
      unit_price_usd: formatDecimal(rate.price),
      unit_price_per: rate.per,
      cost_usd: nanosToUsd(nanos),
      cost_nanos: Number(nanos),
      price_source: rate.source,
    },
  ];
}

const describe = (transaction: Transaction, card: RateCard) =>
  `${transaction.provider} model "${transaction.model}"${card.source === "custom" ? " (custom price)" : ""}`;

function priceEntry(transaction: Transaction, entry: UsageEntry, card: RateCard): LineItem[] {
  const what = describe(transaction, card);
  switch (entry.type) {
    case "tokens": {
      const normalised = normaliseTokens(transaction.provider, entry.metrics);
      if (!normalised.ok) throw new Unpriceable(normalised.reason);
      const { tokens } = normalised;
      const rate = (key: TokenRateKey, fallback?: TokenRateKey) => {
        const found = card.tokens[key] ?? (fallback ? card.tokens[fallback] : undefined);
        return found ? rateAt(found, tokens.promptTotal) : undefined;
      };
      return [
        ...line("tokens", "input", tokens.input, rate("input_mtok"), `no input token price for ${what}`),
        // A model without a cache price is billed its input price for cached tokens.
        ...line(
          "tokens",
          "cache_read",
          tokens.cacheRead,
          rate("cache_read_mtok", "input_mtok"),
          `no cache read price for ${what}`,
        ),
        ...line(
          "tokens",
          "cache_write",
          tokens.cacheWrite,
          rate("cache_write_mtok", "input_mtok"),
          `no cache write price for ${what}`,
        ),
        ...line("tokens", "output", tokens.output, rate("output_mtok"), `no output token price for ${what}`),
        ...line(
          "tokens",
          "reasoning",
          tokens.reasoning,
          rate("reasoning_mtok", "output_mtok"),
          `no reasoning price for ${what}`,
        ),
      ];
    }
    case "images": {
      const { generated, quality, size_px, width_px, height_px } = entry.metrics;
      const request = { quality, width: width_px ?? size_px, height: height_px ?? size_px };
      const size = request.width && request.height ? ` at ${request.width}x${request.height}` : "";
      return line(
        "images",
        "generated",
        generated,
        card.image?.(request),
        `no image price for ${what}${quality ? ` at quality "${quality}"` : ""}${size}`,
      );
    }
    case "audio_seconds": {
      const { input_seconds, output_seconds, total_seconds } = entry.metrics;
      if (card.audioInputSecond || card.audioOutputSecond) {
        if (input_seconds !== undefined || output_seconds !== undefined) {
          return [
            ...line(
              "audio_seconds",
              "input",
              input_seconds ?? 0,
              card.audioInputSecond,
              `no audio input price for ${what}`,
            ),
            ...line(
              "audio_seconds",
              "output",
              output_seconds ?? 0,
              card.audioOutputSecond,
              `no audio output price for ${what}`,
            ),
          ];
        }
      }
      const seconds = total_seconds ?? (input_seconds ?? 0) + (output_seconds ?? 0);
      return line("audio_seconds", "total", seconds, card.audioSecond, `no audio price for ${what}`);
    }
    case "video_seconds":
      return line(
        "video_seconds",
        "processed",
        entry.metrics.processed_seconds,
        card.videoSecond,
        `no video price for ${what}`,
      );
    case "requests": {
      const { count, request_type, sources_used } = entry.metrics;
      const type = request_type ?? "default";
      return [
        ...line(
          "requests",
          type,
          count,
          card.requests[type] ?? card.requests.default,
          `no price for ${type} requests for ${what}`,
        ),
        ...line("requests", "sources_used", sources_used ?? 0, card.sourceUsed, `no price per source used for ${what}`),
      ];
    }
    case "custom":
      return line("custom", "units", entry.metrics.units, card.unit, `no custom unit price for ${what}`);
  }
}
