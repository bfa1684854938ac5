import type { Firestore } from "@google-cloud/firestore";
import type { CustomPricing, PlatformPricing } from "@usage-ingestion/prices";
import { priceAt, pricingFields, unpricedBecause } from "@usage-ingestion/prices";
import { type MergeWrite, reportedChange, rollupWrites, unpricedReasonOf } from "@usage-ingestion/reports";
import { type CostRecord, type PricingFields, type Transaction, validateTransaction } from "@usage-ingestion/shared";

/**
 * What the admin command line may use of the worker: pricing a stored record again, exactly as the
 * worker priced it, as of the record's own receive time.
 */
export type { CustomPricing, PlatformPricing };

export function repriceRecord(
  record: CostRecord,
  custom: CustomPricing | null,
  platform: PlatformPricing | null = null,
): PricingFields {
  const transaction = storedTransaction(record);
  const priced = transaction
    ? priceAt(transaction, new Date(record.received_at), custom, platform)
    : unpricedBecause(record.unpriced_reason ?? "unreadable record");
  return pricingFields(priced);
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

/** Moves a record from unpriced to priced in the reports: in the same transaction as the record's update. */
export function repricedRollupWrites(db: Firestore, record: CostRecord, fields: PricingFields): MergeWrite[] {
  if (record.status !== "unpriced" || fields.status !== "priced") return [];
  // Priced now, a record with the vendor's own cost joins the like-with-like figures (decision 0031).
  const picos = record.provider_reported_cost_picos;
  const reported = reportedChange(
    fields.status,
    fields.cost_nanos,
    picos === null || picos === undefined ? null : Number(picos),
  );
  return rollupWrites(
    db,
    record,
    { unpriced: -1, costNanos: fields.cost_nanos ?? 0, ...(reported ? { reported } : {}) },
    unpricedReasonOf(record),
  );
}
