import {
  QUEUE_SCHEMA_VERSION,
  QUEUEING_FAILURE_ERROR,
  type QueueMessage,
  type Transaction,
  type TransactionOutcome,
} from "@usage-ingestion/shared";
import type { Logger, PublishOutcome } from "@usage-ingestion/shared/server";
import type { RequestLocals } from "../http/send.ts";

/** A transaction that passed validation, with its index in the request. */
export interface ValidTransaction {
  index: number;
  transaction: Transaction;
}

/**
 * One queue message per valid transaction, stamped with the request's id, organization and receive time:
 * the same for every route that ingests (POST /usage/transactions, POST /v1/traces).
 */
export function queueMessages(valid: readonly ValidTransaction[], context: RequestLocals): QueueMessage[] {
  const receivedAt = context.receivedAt.toISOString();
  return valid.map(({ index, transaction }) => ({
    schema_version: QUEUE_SCHEMA_VERSION,
    organization_id: context.organizationId as string,
    request_id: context.requestId,
    transaction_index: index,
    received_at: receivedAt,
    transaction,
  }));
}

/**
 * Every transaction's outcome, in request order: invalid ones with their reason, the valid ones with the
 * publish outcome of their message (`published` holds one per valid transaction, in order). Publish
 * failures are logged in one line per request, with the first one's error.
 */
export function transactionOutcomes(
  invalid: ReadonlyArray<string | undefined>,
  published: readonly PublishOutcome[],
  context: RequestLocals,
  logger: Logger,
): TransactionOutcome[] {
  let next = 0;
  const failed: number[] = [];
  let firstError: unknown;
  const outcomes = invalid.map((reason, index): TransactionOutcome => {
    if (reason !== undefined) return { kind: "invalid", error: reason };
    const outcome = published[next++];
    if (outcome && "id" in outcome) return { kind: "queued", messageId: outcome.id };
    if (failed.length === 0) firstError = outcome?.error;
    failed.push(index);
    return { kind: "not_queued", error: QUEUEING_FAILURE_ERROR };
  });
  if (failed.length > 0) {
    logger.log("ERROR", `publish failed for ${failed.length} transaction(s)`, {
      request_id: context.requestId,
      transaction_indexes: failed,
      trace: context.trace,
      error: firstError,
    });
  }
  return outcomes;
}
