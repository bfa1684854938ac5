import type { UsageType } from "./schemas/usage.ts";

/**
 * The stored cost record: one Firestore document per queued transaction, written by the worker, read by
 * the admin command line, the reports and the tests. This file is its only definition.
 */

/**
 * `priced` and `unpriced` records are the billable set. A later transaction with a `transaction_id` already
 * billed is stored as `duplicate` (same content) or `conflict` (different content), with `duplicate_of`.
 */
export const RECORD_STATUSES = ["priced", "unpriced", "duplicate", "conflict"] as const;
export type RecordStatus = (typeof RECORD_STATUSES)[number];
export type BillableStatus = "priced" | "unpriced";
export const BILLABLE_STATUSES: readonly RecordStatus[] = ["priced", "unpriced"];
export const isBillable = (status: RecordStatus): status is BillableStatus => BILLABLE_STATUSES.includes(status);

/** One priced component of one usage entry. */
export interface LineItem {
  usage_type: UsageType;
  /** What was counted: `input`, `cache_read`, `output`, `generated`, a request type, ... */
  component: string;
  quantity: number;
  unit: string;
  /** USD for `unit_price_per` units, as a decimal string. */
  unit_price_usd: string;
  unit_price_per: number;
  cost_usd: string;
  cost_nanos: number;
  /** Where the rate came from: the catalog and its version, our price table and its page, or a custom price. */
  price_source: string;
}

export interface RecordPricing {
  /** `platform`: the platform-wide price list (`admin pricing catalog`). */
  source: "catalog" | "custom" | "platform" | null;
  version: string | null;
  model: string | null;
}

/** The fields that pricing decides; re-pricing rewrites exactly these. */
export interface PricingFields {
  status: BillableStatus;
  unpriced_reason: string | null;
  cost_usd: string | null;
  cost_nanos: number | null;
  line_items: LineItem[];
  pricing: RecordPricing;
}

/** `organizations/{org_id}/transactions/{message_id}`. */
export interface CostRecord extends Omit<PricingFields, "status"> {
  status: RecordStatus;
  /** The client's own id for the event, when it sent one. */
  transaction_id: string | null;
  /** For `duplicate` and `conflict`: the message id of the record that is billed. */
  duplicate_of: string | null;
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
  /**
   * The cost the vendor reported for the call (the transaction's `provider_cost`, or xAI's ticks in its raw
   * usage): a twelve-place decimal string in USD, exact, and the same in integer pico-USD. Absent when it
   * carried none, as on every record stored before (decision 0031). Never part of `cost_usd`.
   */
  provider_reported_cost?: string | null;
  provider_reported_cost_picos?: number | null;
  currency: "USD";
  queue_schema_version: number;
  /** The declared context dimensions at the time of writing, as the roll-up cell holds them. */
  dimensions?: Record<string, string | null>;
  /** Set when `admin reprice` priced the record again. */
  repriced_at?: string;
  /**
   * Bumped by each re-pricing, so the records feed (record-rows.ts) can tell the latest row of a message;
   * absent (as the worker stores a record) means 1.
   */
  revision?: number;
}

/** `rejected_messages/{message_id}`: a message that can never become a record, kept with its raw data. */
export interface RejectedMessage {
  message_id: string;
  reason: string;
  data_base64: string | null;
  data_text: string | null;
  attributes: Record<string, string>;
  subscription: string | null;
  rejected_at: string;
}
