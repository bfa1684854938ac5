import { type Quantities, quantitiesOf, rollupKeyOf } from "@usage-ingestion/reports";
import type { CostRecord, RecordPricing, RecordStatus, UsageEntry } from "@usage-ingestion/shared";

/**
 * A stored record as it is published to the records topic, one message per row of the BigQuery table
 * `usage.records` (infra/modules/analytics/records-schema.json, which a test holds this shape to). The
 * Pub/Sub BigQuery subscription writes each message's JSON fields into the table's columns of the same
 * names, so every name here is a column name.
 *
 * A record is published as it is stored (beside the commit), again when a redelivered message finds it
 * stored, and again with `revision` + 1 each time re-pricing rewrites it: the table holds each message id
 * one or more times, and the view `usage.records_latest` keeps the row with the highest revision, the
 * latest `published_at` among equals, unless that row is a withdrawal (decision 0017).
 */
export const RECORDS_TOPIC = "usage-records";

/**
 * The status of a withdrawal row: the worker published a record's row beside its commit, and the commit
 * did not store it (Firestore refused the record, or the call failed). Published after that row, at the
 * same revision, it wins the view's ranking, and the view leaves the message id out.
 */
export const WITHDRAWN = "withdrawn";

export interface RecordRow {
  message_id: string;
  /** 1 as the worker stores a record; each re-pricing adds 1 (the record's `revision`, absent = 1). */
  revision: number;
  organization_id: string;
  request_id: string;
  transaction_index: number;
  transaction_id: string | null;
  duplicate_of: string | null;
  /** The record's status; `withdrawn` for a row that takes back one of a record never stored. */
  status: RecordStatus | typeof WITHDRAWN;
  unpriced_reason: string | null;
  provider: string;
  model: string;
  model_tier: string | null;
  billable_customer_id: string;
  /** The organization's declared context dimensions, as the record's roll-up cell holds them. */
  dimensions: Array<{ name: string; value: string | null }>;
  /** Integer nano-USD (INT64); null when unpriced and for duplicates and conflicts. */
  cost_nanos: number | null;
  /** The same amount as a nine-place decimal string (NUMERIC). */
  cost_usd: string | null;
  currency: "USD";
  line_items: Array<{
    usage_type: string;
    component: string;
    quantity: number;
    unit: string;
    unit_price_usd: string;
    unit_price_per: number;
    cost_usd: string;
    cost_nanos: number;
    price_source: string;
  }>;
  pricing: RecordPricing;
  /** The usage quantities the reports sum, as sent (each vendor's own convention). */
  quantities: Quantities;
  /** ISO 8601 UTC times (TIMESTAMP). The table is partitioned by `received_at`'s day. */
  received_at: string;
  processed_at: string;
  repriced_at: string | null;
  published_at: string;
  /**
   * The cost the vendor itself reported for the call (decision 0031): twelve decimals (BIGNUMERIC, as
   * NUMERIC holds nine) and integer pico-USD. Absent (a NULL column) when none, so the message of a record
   * without one is no larger than before. Last, as columns added to the table are.
   */
  provider_reported_cost?: string;
  provider_reported_cost_picos?: number;
}

/** The revision a stored record is at: records written before revisions existed are at 1. */
export const revisionOf = (record: Pick<CostRecord, "revision">): number => record.revision ?? 1;

/**
 * The row of a stored record. `quantities` are the worker's own when it has them (no second pass over the
 * usage on the hot path); otherwise they are counted from the stored usage.
 */
export function recordRow(record: CostRecord, publishedAt: Date, quantities?: Quantities): RecordRow {
  const key = rollupKeyOf(record);
  return {
    message_id: record.message_id,
    revision: revisionOf(record),
    organization_id: record.organization_id,
    request_id: record.request_id,
    transaction_index: record.transaction_index,
    transaction_id: record.transaction_id,
    duplicate_of: record.duplicate_of,
    status: record.status,
    unpriced_reason: record.unpriced_reason,
    provider: record.provider,
    model: record.model,
    model_tier: record.model_tier,
    billable_customer_id: key.billable_customer_id,
    dimensions: Object.keys(key.dimensions)
      .sort()
      .map((name) => ({ name, value: key.dimensions[name] ?? null })),
    cost_nanos: record.cost_nanos,
    cost_usd: record.cost_usd,
    currency: record.currency,
    // Read back from Firestore, a record may predate a field: what is absent is empty, never a crash.
    line_items: (record.line_items ?? []).map((item) => ({
      usage_type: item.usage_type,
      component: item.component,
      quantity: item.quantity,
      unit: item.unit,
      unit_price_usd: item.unit_price_usd,
      unit_price_per: item.unit_price_per,
      cost_usd: item.cost_usd,
      cost_nanos: item.cost_nanos,
      price_source: item.price_source,
    })),
    pricing: {
      source: record.pricing?.source ?? null,
      version: record.pricing?.version ?? null,
      model: record.pricing?.model ?? null,
    },
    quantities: quantities ?? storedQuantities(record.usage),
    received_at: record.received_at,
    processed_at: record.processed_at,
    repriced_at: record.repriced_at ?? null,
    published_at: publishedAt.toISOString(),
    ...reportedCost(record),
  };
}

/** The vendor's own cost of a record, where it has one (both fields or neither). */
function reportedCost(record: CostRecord): Pick<RecordRow, "provider_reported_cost" | "provider_reported_cost_picos"> {
  const { provider_reported_cost: usd, provider_reported_cost_picos: picos } = record;
  if (typeof usd !== "string" || typeof picos !== "number") return {};
  return { provider_reported_cost: usd, provider_reported_cost_picos: picos };
}

/**
 * The row that takes back `record`'s row at its revision: the record's identity (message id, revision,
 * organization, receive time, so the same partition and window), nothing billed, nothing counted.
 */
export function withdrawalRow(record: CostRecord, publishedAt: Date): RecordRow {
  const {
    provider_reported_cost: _usd,
    provider_reported_cost_picos: _picos,
    ...row
  } = recordRow(record, publishedAt, quantitiesOf([]));
  return {
    ...row,
    status: WITHDRAWN,
    duplicate_of: null,
    unpriced_reason: null,
    cost_nanos: null,
    cost_usd: null,
    line_items: [],
  };
}

/** A stored record's usage passed validation once; anything else in it counts nothing. */
function storedQuantities(usage: unknown): Quantities {
  const entries = Array.isArray(usage)
    ? usage.filter((entry): entry is UsageEntry => typeof entry === "object" && entry !== null && "metrics" in entry)
    : [];
  return quantitiesOf(entries);
}
