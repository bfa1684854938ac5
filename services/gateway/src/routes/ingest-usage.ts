import {
  BulkShapeSchema,
  type ErrorReply,
  type FieldError,
  firstMessageId,
  ingestionResponse,
  isBulkRequestBody,
  isJsonObject,
  toFieldErrors,
  validationFailed,
} from "@usage-ingestion/shared";
import type { Request, Response } from "express";
import * as v from "valibot";
import { locals, send } from "../http/send.ts";
import { type Candidate, describeInvalid } from "../ingest/candidates.ts";
import { type IngestDeps, type Ingestion, ingestTransactions } from "../ingest/ingest-transactions.ts";

/**
 * POST /usage/transactions, after authentication and body parsing: every transaction of the body goes
 * down the ingest path; 400 when the body is no request or none of its transactions is valid, otherwise
 * 202, 207 or 500 reporting each by its index.
 */
export function ingestUsage(deps: IngestDeps) {
  return async (req: Request, res: Response) => {
    const started = startIngest(req, res, deps);
    if ("status" in started) return send(res, started);
    if ("refused" in started) return send(res, validationFailed(started.refused));
    const response = ingestionResponse(await started.outcomes);
    const idempotencyKey = response.status === 500 ? undefined : firstMessageId(response.body.results);
    if (idempotencyKey) res.setHeader("Idempotency-Key", idempotencyKey);
    send(res, response);
  };
}

/**
 * Reads the body into candidates and starts them down the ingest path. Kept apart from the route so that
 * while Pub/Sub answers, the request holds neither the body, parsed or as read, nor its transactions.
 */
function startIngest(req: Request, res: Response, deps: IngestDeps): ErrorReply | Ingestion {
  const context = locals(res);
  const text = context.bodyText;
  context.bodyText = undefined;
  const read = candidatesOf(req.body, context.shapeErrors);
  if ("status" in read) return read;
  req.body = undefined;
  const body = text && { text, bulk: read.bulk };
  return ingestTransactions(read.candidates, context, deps, { body, refuseIfNoneValid: true });
}

/**
 * The body's transactions, their field errors placed in the request (`transactions.<i>.…` in a bulk,
 * `body` for a single one); a 400 when the body is no request at all.
 */
function candidatesOf(
  body: unknown,
  shapeErrors: ReadonlyMap<number, FieldError> | undefined,
): { bulk: boolean; candidates: Candidate[] } | ErrorReply {
  if (!isJsonObject(body)) {
    return validationFailed([
      { field: "body", code: "invalid_type", message: "body must be a JSON object (a transaction or a bulk request)" },
    ]);
  }
  if (!isBulkRequestBody(body)) return { bulk: false, candidates: [{ input: body, place: { root: "body" } }] };
  const shape = v.safeParse(BulkShapeSchema, body, { abortEarly: false, abortPipeEarly: true });
  if (!shape.success) return validationFailed(toFieldErrors(shape.issues));
  const candidates = shape.output.transactions.map((input, index): Candidate => {
    // Past its own bounds on work (parseUsageBody): refused alone, never validated.
    const refused = shapeErrors?.get(index);
    if (refused) return { invalid: describeInvalid([refused]), errors: [refused] };
    return { input, place: { prefix: `transactions.${index}` } };
  });
  return { bulk: true, candidates };
}
