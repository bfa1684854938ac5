import { decimal, type Provider } from "@usage-ingestion/shared";
import type { ImageRequest, Rate } from "../rate-types.ts";
import { matchRank } from "../resolve-model.ts";
import { UNIT_PRICES } from "./index.ts";
import type { UnitPrice } from "./types.ts";

/** The newest price in effect at `at` among those naming the model most specifically. */
function inEffect(prices: UnitPrice[], names: readonly string[], at: Date): UnitPrice | undefined {
  const time = at.getTime();
  const ranked = prices
    .filter((price) => new Date(price.effectiveFrom).getTime() <= time)
    .map((price) => ({ price, rank: matchRank(price.model, names) ?? Number.POSITIVE_INFINITY }));
  const best = Math.min(...ranked.map(({ rank }) => rank));
  return ranked
    .filter(({ rank }) => rank === best)
    .sort((a, b) => new Date(b.price.effectiveFrom).getTime() - new Date(a.price.effectiveFrom).getTime())[0]?.price;
}

const toRate = (price: UnitPrice, unit: string): Rate => ({
  price: decimal(price.usd),
  per: price.per ?? 1,
  unit,
  source: `${price.source} (effective ${price.effectiveFrom})`,
});

/** The quality a vendor uses when none is asked for; GPT Image's default ("auto") has no fixed price. */
const DEFAULT_QUALITY: Record<string, string> = { "dall-e-3": "standard", "amazon.nova-canvas-v1:0": "standard" };

/** Per-image, per-second and per-request prices for the model at `at`. */
export function unitRates(provider: Provider, names: readonly string[], at: Date) {
  const mine = UNIT_PRICES.filter(
    (price) => price.provider === provider && matchRank(price.model, names) !== undefined,
  );
  const find = (kind: UnitPrice["kind"], unit: string) => {
    const found = inEffect(
      mine.filter((price) => price.kind === kind),
      names,
      at,
    );
    return found ? toRate(found, unit) : undefined;
  };
  const requests: Record<string, Rate> = {};
  for (const kind of new Set(mine.map((price) => price.kind))) {
    if (!kind.startsWith("request:")) continue;
    const rate = find(kind, "request");
    if (rate) requests[kind.slice("request:".length)] = rate;
  }
  const images = mine.filter((price) => price.kind === "image");
  return {
    image: images.length
      ? (request: ImageRequest) => {
          // Every vendor here defaults to 1024x1024 and to its "standard" quality where it has one.
          const side = Math.max(request.width ?? 0, request.height ?? 0) || 1024;
          const quality = request.quality ?? names.map((name) => DEFAULT_QUALITY[name]).find(Boolean);
          const candidates = images.filter(
            (price) =>
              (price.quality === undefined || price.quality === quality) &&
              (price.maxSide === undefined || side <= price.maxSide) &&
              (price.minSide === undefined || side >= price.minSide),
          );
          const found = inEffect(candidates, names, at);
          return found ? toRate(found, "image") : undefined;
        }
      : undefined,
    audioSecond: find("audio_second", "second"),
    videoSecond: find("video_second", "second"),
    sourceUsed: find("source_used", "source"),
    requests,
  };
}

/** Every per-unit price of the model in effect at `at`, the newest for each kind, quality and size. */
export function unitPricesInEffect(provider: Provider, names: readonly string[], at: Date): UnitPrice[] {
  const mine = UNIT_PRICES.filter(
    (price) =>
      price.provider === provider &&
      matchRank(price.model, names) !== undefined &&
      new Date(price.effectiveFrom).getTime() <= at.getTime(),
  );
  const groups = new Map<string, UnitPrice[]>();
  for (const price of mine) {
    const key = [price.kind, price.quality, price.minSide, price.maxSide].join("|");
    groups.set(key, [...(groups.get(key) ?? []), price]);
  }
  return [...groups.values()].flatMap((prices) => {
    const found = inEffect(prices, names, at);
    return found ? [found] : [];
  });
}
