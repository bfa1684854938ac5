import { type ErrorResponse, errorBody } from "./error-envelope.ts";

export interface TransactionResult {
  transaction_index: number;
  message_id: string | null;
  error?: string;
}

export interface SuccessResponse {
  status: "queued";
  events_queued: number;
  message: string;
  results: TransactionResult[];
}
export interface PartialSuccessResponse {
  status: "partial_success";
  events_queued: number;
  events_failed: number;
  message: string;
  results: TransactionResult[];
}
export interface FailureResponse extends ErrorResponse {
  events_failed: number;
  results: TransactionResult[];
}

/**
 * The start of a 207/500 entry's error when the transaction was valid but not queued: the entries a
 * client retries (a validation failure starts with `validation failed`, and is never retried).
 */
export const QUEUEING_FAILURE_PREFIX = "queueing failed";
export const QUEUEING_FAILURE_ERROR = `${QUEUEING_FAILURE_PREFIX}: the transaction was not queued; retry it`;

/** What became of one transaction: queued with an id, or failed (invalid, or not queued) with a reason. */
export type TransactionOutcome =
  | { kind: "queued"; messageId: string }
  | { kind: "invalid"; error: string }
  | { kind: "not_queued"; error: string };

export type IngestionResponse =
  | { status: 202; body: SuccessResponse }
  | { status: 207; body: PartialSuccessResponse }
  | { status: 500; body: FailureResponse };

/**
 * The one place that turns per-transaction outcomes into 202, 207 or 500. `results` always holds
 * every transaction, in order. A 500 means nothing valid could be queued and nothing was invalid:
 * the whole request is safe to retry.
 */
export function ingestionResponse(outcomes: readonly TransactionOutcome[]): IngestionResponse {
  const results: TransactionResult[] = outcomes.map((outcome, transaction_index) =>
    outcome.kind === "queued"
      ? { transaction_index, message_id: outcome.messageId }
      : { transaction_index, message_id: null, error: outcome.error },
  );
  const queued = outcomes.filter((outcome) => outcome.kind === "queued").length;
  const failed = outcomes.length - queued;
  if (failed === 0) {
    return {
      status: 202,
      body: {
        status: "queued",
        events_queued: queued,
        message: `${queued} transaction(s) queued for processing`,
        results,
      },
    };
  }
  const anyInvalid = outcomes.some((outcome) => outcome.kind === "invalid");
  if (queued === 0 && !anyInvalid) {
    return {
      status: 500,
      body: {
        ...errorBody(
          "internal_error",
          `0 transaction(s) queued, ${failed} failed to queue; the request can be retried`,
        ),
        events_failed: failed,
        results,
      },
    };
  }
  return {
    status: 207,
    body: {
      status: "partial_success",
      events_queued: queued,
      events_failed: failed,
      message: `${queued} transaction(s) queued, ${failed} failed`,
      results,
    },
  };
}

/** The `Idempotency-Key` of a 202 or 207: the message id of the first transaction queued. */
export function firstMessageId(results: readonly TransactionResult[]): string | undefined {
  return results.find((result) => result.message_id !== null)?.message_id ?? undefined;
}
