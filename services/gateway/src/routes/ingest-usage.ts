import type { Logger } from "@usage-ingestion/shared";
import {
  BulkShapeSchema,
  type FieldError,
  firstMessageId,
  ingestionResponse,
  isBulkRequestBody,
  isJsonObject,
  prefixFieldErrors,
  QUEUE_SCHEMA_VERSION,
  type QueueMessage,
  type TransactionOutcome,
  type TransactionValidation,
  toFieldErrors,
  traceAttributes,
  validateTransaction,
} from "@usage-ingestion/shared";
import type { Request, Response } from "express";
import * as v from "valibot";
import { locals, sendValidationError } from "../http/send.ts";
import type { Publisher } from "../queue/publisher.ts";

interface Judged {
  validation: TransactionValidation;
  /** Field errors placed in the request (`transactions.<i>.…` in a bulk). */
  errors: FieldError[];
}

/**
 * POST /usage/transactions, after authentication and body parsing: judge every transaction, answer 400
 * when none is valid, otherwise publish the valid ones concurrently and report each by its index.
 */
export function ingestUsage(publisher: Publisher, logger: Logger) {
  return async (req: Request, res: Response) => {
    const context = locals(res);
    const body: unknown = req.body;
    if (!isJsonObject(body)) {
      return sendValidationError(res, 400, [
        {
          field: "body",
          code: "invalid_type",
          message: "body must be a JSON object (a transaction or a bulk request)",
        },
      ]);
    }

    let judged: Judged[];
    if (isBulkRequestBody(body)) {
      const shape = v.safeParse(BulkShapeSchema, body, { abortEarly: false, abortPipeEarly: true });
      if (!shape.success) return sendValidationError(res, 400, toFieldErrors(shape.issues));
      judged = shape.output.transactions.map((input, index) => judge(input, `transactions.${index}`));
    } else {
      judged = [judge(body, "")];
    }
    if (judged.every((item) => !item.validation.ok)) {
      return sendValidationError(
        res,
        400,
        judged.flatMap((item) => item.errors),
      );
    }

    const outcomes = await Promise.all(
      judged.map(async ({ validation, errors }, index): Promise<TransactionOutcome> => {
        if (!validation.ok) return { kind: "invalid", error: describeInvalid(errors) };
        const message: QueueMessage = {
          schema_version: QUEUE_SCHEMA_VERSION,
          organization_id: context.organizationId as string,
          request_id: context.requestId,
          transaction_index: index,
          received_at: context.receivedAt.toISOString(),
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
          return { kind: "not_queued", error: "queueing failed: the transaction was not queued; retry it" };
        }
      }),
    );

    const response = ingestionResponse(outcomes);
    const idempotencyKey = response.status === 500 ? undefined : firstMessageId(response.body.results);
    if (idempotencyKey) res.setHeader("Idempotency-Key", idempotencyKey);
    context.eventsQueued = response.status === 500 ? 0 : response.body.events_queued;
    context.eventsFailed = response.status === 202 ? 0 : response.body.events_failed;
    res.status(response.status).json(response.body);
  };
}

function judge(input: unknown, prefix: string): Judged {
  const validation = validateTransaction(input);
  return { validation, errors: validation.ok ? [] : prefixFieldErrors(validation.errors, prefix) };
}

/** A failed bulk entry names its first field error; the others are found by fixing and resending. */
function describeInvalid(errors: FieldError[]): string {
  const [first] = errors;
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more field error(s))` : "";
  return first ? `validation failed: ${first.field} (${first.code}): ${first.message}${more}` : "validation failed";
}
