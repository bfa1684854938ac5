import { type CostRecord, type LineItem, nanosToUsd, picosToUsd, type RecordStatus } from "@usage-ingestion/shared";

/**
 * A record as `GET /usage/records` and `GET /usage/records/{message_id}` answer it: the public shape,
 * built field by field from the stored record, so a field the worker adds later (or keeps for itself:
 * organization, request, roll-up dimensions, revision, cost in nanos) is never published by accident.
 */
export interface RecordLineItemView {
  usage_type: string;
  component: string;
  quantity: number;
  unit: string;
  /** USD for `unit_price_per` units, a decimal string: the rate. */
  unit_price_usd: string;
  unit_price_per: number;
  cost_usd: string;
  /** Where the rate came from: custom prices, the platform list, our price table or the catalog, with its version. */
  price_source: string;
}

export interface RecordView {
  message_id: string;
  /** When the gateway accepted the transaction (ISO 8601, UTC): prices are those in effect then. */
  received_at: string;
  provider: string;
  model: string;
  model_tier: string | null;
  status: RecordStatus;
  unpriced_reason: string | null;
  /** Nine decimal places, exact; null unless `priced`. */
  cost_usd: string | null;
  /** The vendor's own figure for the call, USD, twelve places, exact; null when it reported none (decision 0031). */
  provider_reported_cost: string | null;
  /** As stored: parts Firestore cannot hold are JSON text (docs/api.md, hostile input). */
  context: unknown;
  usage: unknown;
  transaction_id: string | null;
  /** For `duplicate` and `conflict`: the message id of the record that is billed. */
  duplicate_of: string | null;
  line_items: RecordLineItemView[];
}

/** One record asked for by its id: the whole transaction as sent, its raw provider usage included. */
export interface RecordDetail extends RecordView {
  provider_usage_raw: unknown;
}

const lineItemView = (item: LineItem): RecordLineItemView => ({
  usage_type: item.usage_type,
  component: item.component,
  quantity: item.quantity,
  unit: item.unit,
  unit_price_usd: item.unit_price_usd,
  unit_price_per: item.unit_price_per,
  // The nanos are the exact figure the total is summed from; the text is derived from them when present.
  cost_usd: Number.isSafeInteger(item.cost_nanos) ? nanosToUsd(BigInt(item.cost_nanos)) : item.cost_usd,
  price_source: item.price_source,
});

/** The vendor's figure from its integer pico-USD, the stored text only where they are missing (or null). */
function providerCostOf(record: CostRecord): string | null {
  const picos: unknown = record.provider_reported_cost_picos;
  if (typeof picos === "bigint") return picosToUsd(picos);
  if (typeof picos === "number" && Number.isSafeInteger(picos)) return picosToUsd(BigInt(picos));
  return record.provider_reported_cost ?? null;
}

/** The cost as the reports count it: from the integer nanos, the stored text only where they are missing. */
function costOf(record: CostRecord): string | null {
  if (record.status !== "priced") return null;
  if (Number.isSafeInteger(record.cost_nanos)) return nanosToUsd(BigInt(record.cost_nanos as number));
  return record.cost_usd ?? null;
}

export function recordView(record: CostRecord): RecordView {
  return {
    message_id: record.message_id,
    received_at: record.received_at,
    provider: record.provider,
    model: record.model,
    model_tier: record.model_tier ?? null,
    status: record.status,
    unpriced_reason: record.unpriced_reason ?? null,
    cost_usd: costOf(record),
    provider_reported_cost: providerCostOf(record),
    context: record.context ?? null,
    usage: record.usage ?? null,
    transaction_id: record.transaction_id ?? null,
    duplicate_of: record.duplicate_of ?? null,
    line_items: (record.line_items ?? []).map(lineItemView),
  };
}

export const recordDetail = (record: CostRecord): RecordDetail => ({
  ...recordView(record),
  provider_usage_raw: record.provider_usage_raw ?? null,
});
