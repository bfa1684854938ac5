import {
  BulkShapeSchema,
  type ErrorReply,
  type FieldError,
  firstMessageId,
  ingestionResponse,
  isBulkRequestBody,
  isJsonObject,
  QUEUE_SCHEMA_VERSION,
  QUEUEING_FAILURE_ERROR,
  type QueueMessage,
  type Transaction,
  type TransactionOutcome,
  type TransactionValidation,
  toFieldErrors,
  traceAttributes,
  validateTransaction,
  validationFailed,
} from "@usage-ingestion/shared";
import type { Logger } from "@usage-ingestion/shared/server";
import type { Request, Response } from "express";
import * as v from "valibot";
import { locals, type RequestLocals, send } from "../http/send.ts";
import type { Publisher, PublishOutcome } from "../queue/publisher.ts";
import { transactionTexts } from "../queue/transaction-texts.ts";

/**
 * POST /usage/transactions, after authentication and body parsing: judge every transaction, answer 400
 * when none is valid, otherwise publish the valid ones together and report each by its index.
 */
export function ingestUsage(publisher: Publisher, logger: Logger) {
  return async (req: Request, res: Response) => {
    const context = locals(res);
    const started = startPublishing(req, context, publisher);
    if ("status" in started) return send(res, started);
    const { invalid } = started;
    const published = await started.publishing;
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
      // One line per request, however many of its transactions failed; the error is the first one's.
      logger.log("ERROR", `publish failed for ${failed.length} transaction(s)`, {
        request_id: context.requestId,
        transaction_indexes: failed,
        trace: context.trace,
        error: firstError,
      });
    }

    const response = ingestionResponse(outcomes);
    const idempotencyKey = response.status === 500 ? undefined : firstMessageId(response.body.results);
    if (idempotencyKey) res.setHeader("Idempotency-Key", idempotencyKey);
    context.eventsQueued = response.status === 500 ? 0 : response.body.events_queued;
    context.eventsFailed = response.status === 202 ? 0 : response.body.events_failed;
    send(res, response);
  };
}

interface Judged {
  bulk: boolean;
  /** The valid transactions, with their index in the request. */
  valid: Array<{ index: number; transaction: Transaction }>;
  /** Per index, why the transaction is invalid, or undefined when it is valid. */
  invalid: Array<string | undefined>;
}

/**
 * Every transaction of the body judged, field errors placed in the request (`transactions.<i>.…` in a
 * bulk, as in a single one); a 400 when the body is no request or none of its transactions is valid.
 */
function judge(body: unknown, jsonBytes: number | undefined, dimensions?: readonly string[]): Judged | ErrorReply {
  if (!isJsonObject(body)) {
    return validationFailed([
      { field: "body", code: "invalid_type", message: "body must be a JSON object (a transaction or a bulk request)" },
    ]);
  }
  let validations: TransactionValidation[];
  const source = { jsonBytes, dimensions };
  const bulk = isBulkRequestBody(body);
  if (bulk) {
    const shape = v.safeParse(BulkShapeSchema, body, { abortEarly: false, abortPipeEarly: true });
    if (!shape.success) return validationFailed(toFieldErrors(shape.issues));
    validations = shape.output.transactions.map((input, index) =>
      validateTransaction(input, { prefix: `transactions.${index}` }, source),
    );
  } else {
    validations = [validateTransaction(body, { root: "body" }, source)];
  }
  if (validations.every((item) => !item.ok)) {
    return validationFailed(validations.flatMap((item) => (item.ok ? [] : item.errors)));
  }
  const valid: Judged["valid"] = [];
  const invalid = validations.map((item, index) => {
    if (!item.ok) return describeInvalid(item.errors);
    valid.push({ index, transaction: item.transaction });
    return undefined;
  });
  return { bulk, valid, invalid };
}

/**
 * Judges the body and hands its valid transactions to the publisher, with their text from the body where
 * it can be sent as it is. Kept apart from the route so that while Pub/Sub answers, the request holds
 * only what its answer needs: the body, parsed and as read, and the validated transactions (most of a
 * bulk's memory) are let go as soon as their messages are built.
 */
function startPublishing(
  req: Request,
  context: RequestLocals,
  publisher: Publisher,
): ErrorReply | { invalid: Judged["invalid"]; publishing: Promise<PublishOutcome[]> } {
  const text = context.bodyText;
  context.bodyText = undefined;
  const judged = judge(req.body, text?.length, context.dimensions);
  if ("status" in judged) return judged;
  req.body = undefined;
  const messages = queueMessages(judged.valid, context);
  const texts = text
    ? transactionTexts(text, { bulk: judged.bulk, transactions: judged.invalid.length }, judged.valid)
    : undefined;
  return {
    invalid: judged.invalid,
    publishing: publisher.publish(messages, traceAttributes(context.trace), texts),
  };
}

/** One queue message per valid transaction, stamped with the request's id, organization and receive time. */
function queueMessages(valid: Judged["valid"], context: RequestLocals): QueueMessage[] {
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

/** A failed bulk entry names its first field error; the others are found by fixing and resending. */
function describeInvalid(errors: FieldError[]): string {
  const [first] = errors;
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more field error(s))` : "";
  return first ? `validation failed: ${first.field} (${first.code}): ${first.message}${more}` : "validation failed";
}
