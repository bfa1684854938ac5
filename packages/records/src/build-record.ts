import { type PricedTransaction, pricingFields } from "@usage-ingestion/prices";
import { type CostRecord, picosToUsd, type QueueMessage, reportedCostPicos } from "@usage-ingestion/shared";
import { firestoreSafe } from "./store/firestore-safe.ts";

/** The record of one queued transaction: what was sent, stored so Firestore can hold it, and its price. */
export function buildRecord(
  messageId: string,
  message: QueueMessage,
  priced: PricedTransaction,
  processedAt: Date,
  dimensions: Record<string, string | null> = {},
): CostRecord {
  const { transaction } = message;
  const reported = reportedCostPicos(transaction);
  return {
    message_id: messageId,
    request_id: message.request_id,
    transaction_index: message.transaction_index,
    organization_id: message.organization_id,
    received_at: message.received_at,
    processed_at: processedAt.toISOString(),
    provider: transaction.provider,
    model: transaction.model,
    model_tier: transaction.model_tier ?? null,
    context: firestoreSafe(transaction.context),
    usage: firestoreSafe(transaction.usage),
    provider_usage_raw:
      transaction.provider_usage_raw === undefined ? null : firestoreSafe(transaction.provider_usage_raw),
    // Absent when the call carried none, as on every record stored before the field existed.
    ...(reported === null
      ? {}
      : { provider_reported_cost: picosToUsd(reported), provider_reported_cost_picos: Number(reported) }),
    transaction_id: transaction.transaction_id ?? null,
    duplicate_of: null,
    ...pricingFields(priced),
    currency: "USD",
    queue_schema_version: message.schema_version,
    dimensions,
  };
}
