import type { Firestore } from "@google-cloud/firestore";
import {
  COLLECTIONS,
  type CustomPricingDocument,
  CustomPricingFileSchema,
  type Transaction,
  toFieldErrors,
  validateTransaction,
} from "@usage-ingestion/shared";
import * as v from "valibot";
import { priceAt, unpricedBecause } from "../../services/cost-worker/src/pricing/price.ts";
import { firestoreCustomPricingStore } from "../../services/cost-worker/src/store/custom-pricing-store.ts";
import { type CostRecord, pricingFields } from "../../services/cost-worker/src/store/records.ts";
import { getOrganization, UserError } from "./organizations.ts";

/** Validates a pricing file's text and replaces the organization's custom prices with it. */
export async function setCustomPricing(db: Firestore, organizationId: string, fileText: string, now = new Date()) {
  await getOrganization(db, organizationId);
  let json: unknown;
  try {
    json = JSON.parse(fileText);
  } catch (error) {
    throw new UserError(`the pricing file is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = v.safeParse(CustomPricingFileSchema, json, { abortEarly: false, abortPipeEarly: true });
  if (!parsed.success) {
    const problems = toFieldErrors(parsed.issues).map((error) => `  ${error.field || "file"}: ${error.message}`);
    throw new UserError(`the pricing file is invalid:\n${problems.join("\n")}`);
  }
  const doc: CustomPricingDocument = { prices: parsed.output.prices, updated_at: now.toISOString() };
  await db.collection(COLLECTIONS.customPricing).doc(organizationId).set(doc);
  return doc;
}

export async function getCustomPricing(db: Firestore, organizationId: string) {
  await getOrganization(db, organizationId);
  const snap = await db.collection(COLLECTIONS.customPricing).doc(organizationId).get();
  return (snap.data() as CustomPricingDocument | undefined) ?? { prices: [], updated_at: null };
}

/**
 * Prices the organization's unpriced records again with today's catalog and custom prices, each as of
 * its own receive time. A record is rewritten only if it is still unpriced when the write happens.
 */
export async function repriceUnpriced(db: Firestore, organizationId: string, now = new Date()) {
  await getOrganization(db, organizationId);
  const custom = await firestoreCustomPricingStore(db, 0).get(organizationId);
  const records = db.collection(COLLECTIONS.organizations).doc(organizationId).collection(COLLECTIONS.transactions);
  const unpriced = await records.where("status", "==", "unpriced").get();
  let priced = 0;
  const stillUnpriced: Array<{ message_id: string; reason: string }> = [];
  for (const doc of unpriced.docs) {
    const record = doc.data() as CostRecord;
    const transaction = storedTransaction(record);
    const result = transaction
      ? priceAt(transaction, new Date(record.received_at), custom)
      : unpricedBecause(record.unpriced_reason ?? "unreadable record");
    if (result.pricing.status !== "priced") {
      stillUnpriced.push({ message_id: doc.id, reason: result.pricing.unpriced_reason });
      continue;
    }
    const fields = pricingFields(result);
    const changed = await db.runTransaction(async (tx) => {
      const fresh = await tx.get(doc.ref);
      if (fresh.get("status") !== "unpriced") return false;
      tx.update(doc.ref, { ...fields, repriced_at: now.toISOString() });
      return true;
    });
    if (changed) priced++;
  }
  return { examined: unpriced.size, priced, stillUnpriced };
}

/** The stored record holds what pricing needs; it passed validation once, so it does again. */
function storedTransaction(record: CostRecord): Transaction | null {
  const result = validateTransaction({
    provider: record.provider,
    model: record.model,
    ...(record.model_tier ? { model_tier: record.model_tier } : {}),
    usage: record.usage,
    context: record.context,
  });
  return result.ok ? result.transaction : null;
}
