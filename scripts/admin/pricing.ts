import type { Firestore } from "@google-cloud/firestore";
import { loadCustomPricing, repricedRollupWrites, repriceRecord } from "@usage-ingestion/cost-worker/repricing";
import {
  type CostRecord,
  type CustomPricingDocument,
  CustomPricingFileSchema,
  DOCUMENT_PATHS,
  toFieldErrors,
} from "@usage-ingestion/shared";
import * as v from "valibot";
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
  await db.doc(DOCUMENT_PATHS.customPricing(organizationId)).set(doc);
  return doc;
}

export async function getCustomPricing(db: Firestore, organizationId: string) {
  await getOrganization(db, organizationId);
  const snap = await db.doc(DOCUMENT_PATHS.customPricing(organizationId)).get();
  return (snap.data() as CustomPricingDocument | undefined) ?? { prices: [], updated_at: null };
}

/**
 * Prices the organization's unpriced records again with today's catalog and custom prices, each as of
 * its own receive time. A record is rewritten only if it is still unpriced when the write happens.
 */
export async function repriceUnpriced(db: Firestore, organizationId: string, now = new Date()) {
  await getOrganization(db, organizationId);
  const custom = await loadCustomPricing(db, organizationId);
  const unpriced = await db
    .collection(DOCUMENT_PATHS.transactions(organizationId))
    .where("status", "==", "unpriced")
    .get();
  let priced = 0;
  const stillUnpriced: Array<{ message_id: string; reason: string }> = [];
  for (const doc of unpriced.docs) {
    const fields = repriceRecord(doc.data() as CostRecord, custom);
    if (fields.status !== "priced") {
      stillUnpriced.push({ message_id: doc.id, reason: fields.unpriced_reason ?? "unpriced" });
      continue;
    }
    const changed = await db.runTransaction(async (tx) => {
      const fresh = await tx.get(doc.ref);
      if (fresh.get("status") !== "unpriced") return false;
      const update: Partial<CostRecord> = { ...fields, repriced_at: now.toISOString() };
      tx.update(doc.ref, update);
      for (const write of repricedRollupWrites(db, fresh.data() as CostRecord, fields)) {
        tx.set(write.ref, write.data, { merge: true });
      }
      return true;
    });
    if (changed) priced++;
  }
  return { examined: unpriced.size, priced, stillUnpriced };
}
