import type { Firestore } from "@google-cloud/firestore";
import { DOCUMENT_PATHS, withTimeout } from "@usage-ingestion/shared";
import { ttlCache } from "@usage-ingestion/shared/server";
import * as v from "valibot";
import type { CustomPricing, PlatformPricing } from "./choose-rate-card.ts";
import { type CustomPricingDocument, CustomPricingFileSchema } from "./custom-pricing.ts";
import { type PlatformPricingDocument, PlatformPricingFileSchema } from "./platform-pricing.ts";

/** The prices operators set in Firestore: each organization's own, and the platform-wide list. */
export interface CustomPricingStore {
  /** The organization's prices; null when it has none. Throws InvalidCustomPricing for a broken document. */
  get(organizationId: string): Promise<CustomPricing | null>;
  /** The platform-wide price list; null when there is none. Throws InvalidCustomPricing for a broken one. */
  platform(): Promise<PlatformPricing | null>;
}

/** The platform list's key in the cache: no organization id has a NUL character. */
const PLATFORM_KEY = "\u0000platform";

export class InvalidCustomPricing extends Error {
  override name = "InvalidCustomPricing";
}

/**
 * Reads `custom_pricing/{org}` and `platform_pricing/current` and re-validates them; each cached for `ttlMs`
 * (the same cache: the platform list is one more key in it).
 */
export function firestoreCustomPricingStore(
  db: Firestore,
  ttlMs: number,
  timeoutMs = 10_000,
  now = Date.now,
): CustomPricingStore {
  const read = async (path: string, what: string) => {
    const snap = await withTimeout(
      db.doc(path).get(),
      timeoutMs,
      () => new Error(`reading ${what} took longer than ${timeoutMs} ms`),
    );
    return snap.data();
  };
  const load = ttlCache(
    ttlMs,
    async (key): Promise<CustomPricing | PlatformPricing | null> => {
      if (key === PLATFORM_KEY) {
        const doc = (await read(DOCUMENT_PATHS.platformPricing, "the platform price list")) as
          | PlatformPricingDocument
          | undefined;
        if (!doc) return null;
        const parsed = v.safeParse(PlatformPricingFileSchema, { prices: doc.prices });
        if (!parsed.success) {
          throw new InvalidCustomPricing(`the platform price list is invalid: ${parsed.issues[0]?.message}`);
        }
        return { prices: parsed.output.prices, updatedAt: doc.updated_at };
      }
      const doc = (await read(DOCUMENT_PATHS.customPricing(key), "custom pricing")) as
        | CustomPricingDocument
        | undefined;
      if (!doc) return null;
      const parsed = v.safeParse(CustomPricingFileSchema, { prices: doc.prices });
      if (!parsed.success) {
        throw new InvalidCustomPricing(`custom pricing of ${key} is invalid: ${parsed.issues[0]?.message}`);
      }
      return { prices: parsed.output.prices, updatedAt: doc.updated_at };
    },
    now,
  );
  return {
    get: (organizationId) => load(organizationId) as Promise<CustomPricing | null>,
    platform: () => load(PLATFORM_KEY) as Promise<PlatformPricing | null>,
  };
}

/** The organization's custom prices as stored now (no cache). */
export const loadCustomPricing = (db: Firestore, organizationId: string) =>
  firestoreCustomPricingStore(db, 0).get(organizationId);

/** The platform-wide price list as stored now (no cache). */
export const loadPlatformPricing = (db: Firestore) => firestoreCustomPricingStore(db, 0).platform();
