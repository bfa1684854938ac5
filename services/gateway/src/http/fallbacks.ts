import type { Logger } from "@usage-ingestion/shared";
import { internalErrorResponse } from "@usage-ingestion/shared";
import type { NextFunction, Request, Response } from "express";
import { locals, sendError, sendValidationError } from "./send.ts";

export function methodNotAllowed(allowed: string) {
  return (req: Request, res: Response) => {
    res.setHeader("Allow", allowed);
    sendValidationError(
      res,
      405,
      [{ field: "method", code: "invalid_value", message: `method must be ${allowed}, not ${req.method}` }],
      `${req.method} is not allowed on ${req.path}; use ${allowed}.`,
    );
  };
}

export function notFound(req: Request, res: Response) {
  sendValidationError(
    res,
    404,
    [{ field: "path", code: "invalid_value", message: `path ${req.path} does not exist` }],
    `No route for ${req.method} ${req.path}; the service answers POST /usage/transactions.`,
  );
}

/** The last resort: the client gets a generic message and the request id, the log gets the detail. */
export function unexpectedError(logger: Logger) {
  return (error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error);
    const { requestId, trace } = locals(res);
    logger.log("ERROR", "unhandled error", {
      request_id: requestId,
      trace,
      error: error instanceof Error ? error : String(error),
    });
    sendError(res, 500, internalErrorResponse(`An internal error occurred; quote request id ${requestId}.`));
  };
}
