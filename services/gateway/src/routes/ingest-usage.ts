import {
  BulkShapeSchema,
  type ErrorReply,
  firstMessageId,
  ingestionResponse,
  isBulkRequestBody,
  isJsonObject,
  type TransactionValidation,
  toFieldErrors,
  traceAttributes,
  validateTransaction,
  validationFailed,
} from "@usage-ingestion/shared";
import type { Logger, PublishOutcome } from "@usage-ingestion/shared/server";
import type { Request, Response } from "express";
import * as v from "valibot";
import { locals, type RequestLocals, send } from "../http/send.ts";
import type { Publisher } from "../queue/publisher.ts";
import {
  describeInvalid,
  queueMessages,
  transactionOutcomes,
  type ValidTransaction,
} from "../queue/queue-transactions.ts";
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
    const outcomes = transactionOutcomes(invalid, await started.publishing, context, logger);
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
  valid: ValidTransaction[];
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
