import type { Firestore } from "@google-cloud/firestore";
import {
  type CustomPricingDocument,
  CustomPricingFileSchema,
  DOCUMENT_PATHS,
  withTimeout,
} from "@usage-ingestion/shared";
import * as v from "valibot";
import type { CustomPricing } from "../pricing/choose-rate-card.ts";
import { ttlCache } from "./ttl-cache.ts";

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
  const get = ttlCache(
    ttlMs,
    async (organizationId): Promise<CustomPricing | null> => {
      const snap = await withTimeout(
        db.doc(DOCUMENT_PATHS.customPricing(organizationId)).get(),
        timeoutMs,
        () => new Error(`reading custom pricing took longer than ${timeoutMs} ms`),
      );
      const doc = snap.data() as CustomPricingDocument | undefined;
      if (!doc) return null;
      const parsed = v.safeParse(CustomPricingFileSchema, { prices: doc.prices });
      if (!parsed.success) {
        throw new InvalidCustomPricing(`custom pricing of ${organizationId} is invalid: ${parsed.issues[0]?.message}`);
      }
      return { prices: parsed.output.prices, updatedAt: doc.updated_at };
    },
    now,
  );
  return { get };
}
