import type { FieldError, Provider, Transaction, UsageEntry } from "./contract.ts";

/** A transaction as the client sends it: the contract's transaction plus the client's own id. */
export type TrackedTransaction = Transaction & {
  /** The client's id for the event (1-255 characters); the service bills one id once. */
  transaction_id?: string;
};

/** What an adapter makes of a vendor's response: everything but the caller's `context`. */
export interface VendorUsage {
  provider: Provider;
  model: string;
  /** The service tier the response reports it ran on (`priority`, `flex`, `batch`, `fast`, ...); absent, the list price. */
  model_tier?: string;
  usage: UsageEntry[];
  provider_usage_raw: Record<string, unknown>;
  /** The cost the vendor itself reported for the call, USD as an exact decimal string (xAI's ticks). */
  provider_cost?: string;
  /** The vendor's id for the response, where it has one; the client assigns one otherwise. */
  transaction_id?: string;
}

/** Why a transaction was not delivered. */
export type FailureReason =
  /** The service refused the transaction as invalid (400, or a validation failure in a 207). */
  | "invalid"
  /** The API key was refused (401). */
  | "unauthorized"
  /** Another answer the client must not repeat blindly (413, 404, ...). */
  | "rejected"
  /** Every retry failed (500, queueing failures, network errors, timeouts). */
  | "retries_exhausted"
  /** `track` was called after `close`. */
  | "closed";

export interface DeliveryFailure {
  transaction: TrackedTransaction;
  reason: FailureReason;
  /** What the service or the network said, for a human. */
  error: string;
  /** The last HTTP status seen, if any answer came. */
  status?: number;
  /** The service's field errors for this transaction (paths as the service gave them). */
  details?: FieldError[];
}

export interface Delivered {
  transaction_id: string;
  message_id: string;
}

export interface FlushResult {
  delivered: Delivered[];
  failed: DeliveryFailure[];
}
