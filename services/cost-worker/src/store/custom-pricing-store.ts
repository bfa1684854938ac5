import type { Firestore } from "@google-cloud/firestore";
import { COLLECTIONS, type CustomPricingDocument, CustomPricingFileSchema, withTimeout } from "@usage-ingestion/shared";
import * as v from "valibot";
import type { CustomPricing } from "../pricing/rate-card.ts";

export interface CustomPricingStore {
  /** The organization's prices; null when it has none. Throws InvalidCustomPricing for a broken document. */
  get(organizationId: string): Promise<CustomPricing | null>;
}

export class InvalidCustomPricing extends Error {
  override name = "InvalidCustomPricing";
}

/** Reads `custom_pricing/{org}` and re-validates it; cached per organization for `ttlMs`. */
export function firestoreCustomPricingStore(
  db: Firestore,
  ttlMs: number,
  timeoutMs = 10_000,
  now = Date.now,
): CustomPricingStore {
  const cache = new Map<string, { value: CustomPricing | null; expiresAt: number }>();
  return {
    async get(organizationId) {
      const cached = cache.get(organizationId);
      if (cached && cached.expiresAt > now()) return cached.value;
      const snap = await withTimeout(
        db.collection(COLLECTIONS.customPricing).doc(organizationId).get(),
        timeoutMs,
        () => new Error(`reading custom pricing took longer than ${timeoutMs} ms`),
      );
      const doc = snap.data() as CustomPricingDocument | undefined;
      let value: CustomPricing | null = null;
      if (doc) {
        const parsed = v.safeParse(CustomPricingFileSchema, { prices: doc.prices });
        if (!parsed.success) {
          throw new InvalidCustomPricing(
            `custom pricing of ${organizationId} is invalid: ${parsed.issues[0]?.message}`,
          );
        }
        value = { prices: parsed.output.prices, updatedAt: doc.updated_at };
      }
      if (ttlMs > 0) cache.set(organizationId, { value, expiresAt: now() + ttlMs });
      return value;
    },
  };
}
