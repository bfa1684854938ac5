import type { Firestore } from "@google-cloud/firestore";
import type { ChangeContext } from "@usage-ingestion/audit";
import { getOrganization } from "@usage-ingestion/organizations";
import { ConflictError, DOCUMENT_PATHS, NotFoundError, UserError } from "@usage-ingestion/shared";
import { checkIfMatch, etagOf } from "@usage-ingestion/shared/server";
import type { CustomPrice, CustomPricingDocument } from "./custom-pricing.ts";
import { type PriceView, priceId, priceView, recordPriceChanges } from "./price-ids.ts";

/** Prices one organization may hold: the list is one Firestore document, read whole on each transaction. */
export const MAX_CUSTOM_PRICES = 1_000;

/** The organization's own prices, each with its id and etag (the management API's GET). */
export async function listCustomPrices(db: Firestore, organizationId: string): Promise<PriceView[]> {
  await getOrganization(db, organizationId);
  const snap = await db.doc(DOCUMENT_PATHS.customPricing(organizationId)).get();
  return ((snap.data() as CustomPricingDocument | undefined)?.prices ?? []).map(priceView);
}

/**
 * Adds one price, already validated (CustomPriceSchema). A price with the same provider, model, tier and
 * effective_from (the same id) is a ConflictError: the API never replaces silently; delete it first.
 */
export async function createCustomPrice(
  db: Firestore,
  organizationId: string,
  price: CustomPrice,
  change: ChangeContext,
  now = new Date(),
): Promise<PriceView> {
  await getOrganization(db, organizationId);
  const id = priceId(price);
  const ref = db.doc(DOCUMENT_PATHS.customPricing(organizationId));
  await db.runTransaction(async (transaction) => {
    const current = ((await transaction.get(ref)).data() as CustomPricingDocument | undefined)?.prices ?? [];
    if (current.some((stored) => priceId(stored) === id)) {
      throw new ConflictError(`price ${id} (the same provider, model, model_tier and effective_from) already exists`);
    }
    if (current.length >= MAX_CUSTOM_PRICES) {
      throw new UserError(`${organizationId} holds ${MAX_CUSTOM_PRICES} prices, the most one organization may`);
    }
    const next = [...current, price];
    transaction.set(ref, { prices: next, updated_at: now.toISOString() } satisfies CustomPricingDocument);
    recordPriceChanges(transaction, db, organizationId, change, current, next, now);
  });
  return priceView(price);
}

/** Removes the price with this id; `expectedEtag` (If-Match) must be its current etag when given. */
export async function deleteCustomPrice(
  db: Firestore,
  organizationId: string,
  id: string,
  change: ChangeContext,
  expectedEtag?: string,
  now = new Date(),
): Promise<void> {
  const ref = db.doc(DOCUMENT_PATHS.customPricing(organizationId));
  await db.runTransaction(async (transaction) => {
    const current = ((await transaction.get(ref)).data() as CustomPricingDocument | undefined)?.prices ?? [];
    const found = current.find((price) => priceId(price) === id);
    if (!found) throw new NotFoundError(`organization "${organizationId}" has no price "${id}"`);
    checkIfMatch(expectedEtag, etagOf(found), `price ${id}`);
    const next = current.filter((price) => price !== found);
    transaction.set(ref, { prices: next, updated_at: now.toISOString() } satisfies CustomPricingDocument);
    recordPriceChanges(transaction, db, organizationId, change, current, next, now);
  });
}
