import { invalidJsonResponse, MAX_BODY_BYTES } from "@usage-ingestion/shared";
import express, { type NextFunction, type Request, type Response } from "express";
import { sendError, sendValidationError } from "./send.ts";

/** `Content-Type: application/json`, any charset parameter allowed; checked only after authentication. */
export function requireJsonContentType(req: Request, res: Response, next: NextFunction) {
  if (req.is("application/json") === "application/json") return next();
  const given = req.get("content-type");
  sendError(
    res,
    400,
    invalidJsonResponse(
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
  readRaw(req, res, (error?: unknown) => {
    if (error) return bodyReadFailed(error as BodyReadError, res, next);
    const raw: unknown = req.body;
    if (!Buffer.isBuffer(raw) || raw.length === 0) {
      return sendError(res, 400, invalidJsonResponse("The request body is empty; send a JSON object."));
    }
    try {
      req.body = JSON.parse(raw.toString("utf8"));
    } catch (parseError) {
      const reason = parseError instanceof SyntaxError ? `: ${parseError.message}` : "";
      return sendError(res, 400, invalidJsonResponse(`The request body is not valid JSON${reason}.`));
    }
    next();
  });
}

function bodyReadFailed(error: BodyReadError, res: Response, next: NextFunction) {
  switch (error.type) {
    case "entity.too.large":
      return sendValidationError(
        res,
        413,
        [{ field: "body", code: "too_large", message: `body must be at most ${MAX_BODY_BYTES} bytes` }],
        `The request body is larger than ${MAX_BODY_BYTES / (1024 * 1024)} MiB.`,
      );
    case "encoding.unsupported":
      return sendError(
        res,
        400,
        invalidJsonResponse("The Content-Encoding is not supported; use gzip, deflate or none."),
      );
    case "request.aborted":
    case "request.size.invalid":
      return sendError(res, 400, invalidJsonResponse("The request body was incomplete."));
    default:
      return next(error);
  }
}
