import type { Firestore } from "@google-cloud/firestore";
import { COLLECTIONS, nanosToUsd, type QueueMessage, withTimeout } from "@usage-ingestion/shared";
import type { PricedTransaction } from "../pricing/price.ts";
import type { LineItem, PricingResult } from "../pricing/price-transaction.ts";
import { firestoreSafe } from "./firestore-safe.ts";

/** `organizations/{org_id}/transactions/{message_id}`: one per queued transaction. */
export interface CostRecord {
  message_id: string;
  request_id: string;
  transaction_index: number;
  organization_id: string;
  received_at: string;
  processed_at: string;
  provider: string;
  model: string;
  model_tier: string | null;
  context: unknown;
  usage: unknown;
  provider_usage_raw: unknown;
  status: "priced" | "unpriced";
  unpriced_reason: string | null;
  cost_usd: string | null;
  cost_nanos: number | null;
  currency: "USD";
  line_items: LineItem[];
  pricing: { source: "catalog" | "custom" | null; version: string | null; model: string | null };
  queue_schema_version: number;
}

export function buildRecord(
  messageId: string,
  message: QueueMessage,
  priced: PricedTransaction,
  processedAt: Date,
): CostRecord {
  const { transaction } = message;
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
    ...pricingFields(priced),
    currency: "USD",
    queue_schema_version: message.schema_version,
  };
}

/** The fields that pricing decides; re-pricing rewrites exactly these. */
export function pricingFields({ pricing, card }: PricedTransaction) {
  return {
    ...costFields(pricing),
    pricing: { source: card?.source ?? null, version: card?.version ?? null, model: card?.model ?? null },
  };
}

function costFields(pricing: PricingResult) {
  if (pricing.status === "priced" && pricing.cost_nanos <= BigInt(Number.MAX_SAFE_INTEGER)) {
    return {
      status: "priced" as const,
      unpriced_reason: null,
      cost_usd: nanosToUsd(pricing.cost_nanos),
      cost_nanos: Number(pricing.cost_nanos),
      line_items: pricing.line_items,
    };
  }
  return {
    status: "unpriced" as const,
    unpriced_reason:
      pricing.status === "unpriced" ? pricing.unpriced_reason : "the total cost is too large to record exactly",
    cost_usd: null,
    cost_nanos: null,
    line_items: [],
  };
}

export interface RecordStore {
  /** Creates the record unless one exists for this message: `false` means it was already there. */
  createOnce(organizationId: string, messageId: string, record: CostRecord): Promise<boolean>;
  /** Keeps a message that can never be priced, with its raw data and the reason; idempotent too. */
  reject(messageId: string, rejected: RejectedMessage): Promise<void>;
}

export interface RejectedMessage {
  message_id: string;
  reason: string;
  data_base64: string | null;
  data_text: string | null;
  attributes: Record<string, string>;
  subscription: string | null;
  rejected_at: string;
}

const ALREADY_EXISTS = 6;
const alreadyExists = (error: unknown) => (error as { code?: number }).code === ALREADY_EXISTS;

export const transactionRecord = (db: Firestore, organizationId: string, messageId: string) =>
  db.collection(COLLECTIONS.organizations).doc(organizationId).collection(COLLECTIONS.transactions).doc(messageId);

export class FirestoreTimeoutError extends Error {
  override name = "FirestoreTimeoutError";
}

/**
 * Writes are bounded by `timeoutMs`. A write that lands after its time-out is harmless: the redelivery
 * finds the record and is acknowledged.
 */
export function firestoreRecordStore(db: Firestore, timeoutMs = 10_000): RecordStore {
  const bounded = <T>(promise: Promise<T>) =>
    withTimeout(promise, timeoutMs, () => new FirestoreTimeoutError(`Firestore took longer than ${timeoutMs} ms`));
  return {
    async createOnce(organizationId, messageId, record) {
      try {
        await bounded(transactionRecord(db, organizationId, messageId).create(record));
        return true;
      } catch (error) {
        if (alreadyExists(error)) return false;
        throw error;
      }
    },
    async reject(messageId, rejected) {
      try {
        await bounded(db.collection(COLLECTIONS.rejectedMessages).doc(messageId).create(rejected));
      } catch (error) {
        if (!alreadyExists(error)) throw error;
      }
    },
  };
}
