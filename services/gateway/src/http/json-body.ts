import {
  bodyShape,
  bodyTooLarge,
  invalidJson,
  MAX_BODY_BYTES,
  MAX_NESTING_DEPTH,
  MAX_VALUES_PER_BODY,
  nestedTooDeep,
  tooDeepPath,
  unsupportedEncoding,
  validationFailed,
} from "@usage-ingestion/shared";
import express, { type NextFunction, type Request, type Response } from "express";
import { isUndecodable, unacceptedEncoding } from "./content-encoding.ts";
import { tooManyMembersToParse } from "./member-scan.ts";
import { locals, send } from "./send.ts";

/** `Content-Type: application/json`, any charset parameter allowed; checked only after authentication. */
export function requireJsonContentType(req: Request, res: Response, next: NextFunction) {
  // The common case answered without parsing the header; `req.is` also wants a body to be announced.
  const hasBody = req.headers["content-length"] !== undefined || req.headers["transfer-encoding"] !== undefined;
  if (hasBody && req.headers["content-type"] === "application/json") return next();
  if (req.is("application/json") === "application/json") return next();
  const given = req.get("content-type");
  send(
    res,
    invalidJson(
      given
        ? `The Content-Type header must be application/json, not ${given}.`
        : "The Content-Type header must be application/json.",
    ),
  );
}

const readRaw = express.raw({ type: () => true, limit: MAX_BODY_BYTES });

interface BodyReadError {
  type?: string;
  status?: number;
}

/**
 * Reads at most MAX_BODY_BYTES (413 past that) and parses JSON itself, so that an empty or malformed
 * body is `invalid_json` rather than silently an empty object. The parsed value lands in `req.body`.
 */
export function parseJsonBody(req: Request, res: Response, next: NextFunction) {
  readJsonBody(req, res, next, false);
}

/**
 * POST /usage/transactions' body: parsed as parseJsonBody parses, and walked once against the bounds on
 * work (members per object, values per transaction and per body: `bodyShape`), counting its values. A
 * body past them is not answered here: its refusal waits in `locals(res).refusal` for the rate limits,
 * which charge its bytes first (limitIngestion), so heavy refused bodies count against the tenant too.
 */
export function parseUsageBody(req: Request, res: Response, next: NextFunction) {
  readJsonBody(req, res, next, true);
}

function readJsonBody(req: Request, res: Response, next: NextFunction, usage: boolean) {
  const encoding = unacceptedEncoding(req.headers);
  if (encoding !== undefined) return send(res, unsupportedEncoding(encoding));
  readRaw(req, res, (error?: unknown) => {
    if (error) return bodyReadFailed(error as BodyReadError, res, next);
    const raw: unknown = req.body;
    if (!Buffer.isBuffer(raw) || raw.length === 0) {
      return send(res, invalidJson("The request body is empty; send a JSON object."));
    }
    if (usage && tooManyMembersToParse(raw)) {
      // Refused before it is parsed; the rate limits still charge its bytes.
      const message = `body holds more than ${MAX_VALUES_PER_BODY} values (object members and array elements)`;
      locals(res).refusal = validationFailed([{ field: "body", code: "too_large", message }]);
      locals(res).bodyText = raw;
      req.body = undefined;
      return next();
    }
    let body: unknown;
    try {
      body = JSON.parse(raw.toString("utf8"));
    } catch (parseError) {
      const reason = parseError instanceof SyntaxError ? `: ${parseError.message}` : "";
      return send(res, invalidJson(`The request body is not valid JSON${reason}.`));
    }
    // Checked before anything recursive (validation, serialising) touches the body.
    const context = locals(res);
    if (usage) {
      const shape = bodyShape(body);
      if (shape.ok) {
        context.bodyValues = shape.values;
        if (shape.invalid) context.shapeErrors = shape.invalid;
      } else {
        context.refusal =
          shape.kind === "depth"
            ? nestedTooDeep(shape.field, MAX_NESTING_DEPTH)
            : validationFailed([{ field: shape.field, code: "too_large", message: shape.message }]);
      }
    } else {
      const deep = tooDeepPath(body, MAX_NESTING_DEPTH);
      if (deep) return send(res, nestedTooDeep(deep.join(".") || "body", MAX_NESTING_DEPTH));
    }
    req.body = body;
    context.bodyText = raw;
    next();
  });
}

function bodyReadFailed(error: BodyReadError, res: Response, next: NextFunction) {
  switch (error.type) {
    case "entity.too.large":
      return send(res, bodyTooLarge(MAX_BODY_BYTES));
    case "request.aborted":
    case "request.size.invalid":
      return send(res, invalidJson("The request body was incomplete."));
    default:
      if (isUndecodable(error)) return send(res, invalidJson("The request body does not decompress as gzip."));
      return next(error);
  }
}
