import {
  BulkShapeSchema,
  type FieldError,
  firstMessageId,
  ingestionResponse,
  isBulkRequestBody,
  isJsonObject,
  QUEUE_SCHEMA_VERSION,
  QUEUEING_FAILURE_ERROR,
  type QueueMessage,
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
import { locals, send } from "../http/send.ts";
import type { Publisher } from "../queue/publisher.ts";

/**
 * POST /usage/transactions, after authentication and body parsing: judge every transaction, answer 400
 * when none is valid, otherwise publish the valid ones concurrently and report each by its index.
 */
export function ingestUsage(publisher: Publisher, logger: Logger) {
  return async (req: Request, res: Response) => {
    const context = locals(res);
    const body: unknown = req.body;
    if (!isJsonObject(body)) {
      return send(
        res,
        validationFailed([
          {
            field: "body",
            code: "invalid_type",
            message: "body must be a JSON object (a transaction or a bulk request)",
          },
        ]),
      );
    }

    /** Field errors are placed in the request: `transactions.<i>.…` in a bulk, as they are in a single one. */
    let judged: TransactionValidation[];
    const source = { jsonBytes: context.bodyBytes };
    if (isBulkRequestBody(body)) {
      const shape = v.safeParse(BulkShapeSchema, body, { abortEarly: false, abortPipeEarly: true });
      if (!shape.success) return send(res, validationFailed(toFieldErrors(shape.issues)));
      judged = shape.output.transactions.map((input, index) =>
        validateTransaction(input, { prefix: `transactions.${index}` }, source),
      );
    } else {
      judged = [validateTransaction(body, { root: "body" }, source)];
    }
    if (judged.every((item) => !item.ok)) {
      return send(res, validationFailed(judged.flatMap((item) => (item.ok ? [] : item.errors))));
    }

    const receivedAt = context.receivedAt.toISOString();
    const outcomes = await Promise.all(
      judged.map(async (validation, index): Promise<TransactionOutcome> => {
        if (!validation.ok) return { kind: "invalid", error: describeInvalid(validation.errors) };
        const message: QueueMessage = {
          schema_version: QUEUE_SCHEMA_VERSION,
          organization_id: context.organizationId as string,
          request_id: context.requestId,
          transaction_index: index,
          received_at: receivedAt,
          transaction: validation.transaction,
        };
        try {
          return { kind: "queued", messageId: await publisher.publish(message, traceAttributes(context.trace)) };
        } catch (error) {
          logger.log("ERROR", "publish failed", {
            request_id: context.requestId,
            transaction_index: index,
            trace: context.trace,
            error,
          });
          return { kind: "not_queued", error: QUEUEING_FAILURE_ERROR };
        }
      }),
    );

    const response = ingestionResponse(outcomes);
    const idempotencyKey = response.status === 500 ? undefined : firstMessageId(response.body.results);
    if (idempotencyKey) res.setHeader("Idempotency-Key", idempotencyKey);
    context.eventsQueued = response.status === 500 ? 0 : response.body.events_queued;
    context.eventsFailed = response.status === 202 ? 0 : response.body.events_failed;
    send(res, response);
  };
}

/** A failed bulk entry names its first field error; the others are found by fixing and resending. */
function describeInvalid(errors: FieldError[]): string {
  const [first] = errors;
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more field error(s))` : "";
  return first ? `validation failed: ${first.field} (${first.code}): ${first.message}${more}` : "validation failed";
}
