import type { Firestore } from "@google-cloud/firestore";
import { DOCUMENT_PATHS, UserError } from "@usage-ingestion/shared";
import { describePrice, parseJson, validList } from "./custom-price-list.ts";
import {
  PLATFORM_PRICE_KEYS,
  type PlatformPrice,
  type PlatformPricingDocument,
  PlatformPricingFileSchema,
  platformPriceKey,
} from "./platform-pricing.ts";

/** The platform-wide price list as stored (empty when none was ever set). */
export async function getPlatformPricing(
  db: Firestore,
): Promise<PlatformPricingDocument | { prices: []; updated_at: null }> {
  const snap = await db.doc(DOCUMENT_PATHS.platformPricing).get();
  return (snap.data() as PlatformPricingDocument | undefined) ?? { prices: [], updated_at: null };
}

async function store(db: Firestore, prices: PlatformPrice[], now: Date) {
  // The whole list is checked again (at most MAX_PLATFORM_PRICES entries) before it is written.
  const valid = validList(PlatformPricingFileSchema, PLATFORM_PRICE_KEYS, prices, (i) => `prices.${i}`, "the list");
  const doc: PlatformPricingDocument = { prices: valid, updated_at: now.toISOString() };
  await db.doc(DOCUMENT_PATHS.platformPricing).set(doc);
  return doc;
}

/**
 * Adds prices (one object, or an array of them) to the platform list; an entry for the same provider,
 * model, tier and effective_from is replaced. Returns what was added and what was replaced.
 */
export async function addPlatformPrices(db: Firestore, text: string, now = new Date()) {
  const json = parseJson(text, "the price");
  const list = Array.isArray(json) ? json : [json];
  const added = validList(
    PlatformPricingFileSchema,
    PLATFORM_PRICE_KEYS,
    list,
    (index) => `${index}`,
    Array.isArray(json) ? "the prices" : "the price",
    !Array.isArray(json),
  );
  const current = (await getPlatformPricing(db)).prices;
  const replacing = new Set(added.map(platformPriceKey));
  const replaced = current.filter((price) => replacing.has(platformPriceKey(price)));
  await store(db, [...current.filter((price) => !replacing.has(platformPriceKey(price))), ...added], now);
  return { added, replaced };
}

/** Removes the one entry for this provider, model, tier (none: none) and effective_from. */
export async function removePlatformPrice(
  db: Firestore,
  which: Pick<PlatformPrice, "provider" | "model" | "model_tier" | "effective_from">,
  now = new Date(),
) {
  const current = (await getPlatformPricing(db)).prices;
  const wanted = platformPriceKey(which);
  const left = current.filter((price) => platformPriceKey(price) !== wanted);
  if (left.length === current.length) {
    const same = current.filter((price) => price.provider === which.provider && price.model === which.model);
    throw new UserError(
      `no platform price ${describePrice(which)}${
        same.length ? `; its entries for ${which.provider}/${which.model}: ${same.map(describePrice).join("; ")}` : ""
      }`,
    );
  }
  await store(db, left, now);
  return { left: left.length };
}
