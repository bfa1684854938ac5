import { internalError, methodNotAllowed as notAllowed, routeNotFound } from "@usage-ingestion/shared";
import type { Logger } from "@usage-ingestion/shared/server";
import type { NextFunction, Request, Response } from "express";
import { errorReply } from "./error-map.ts";
import { locals, send } from "./send.ts";

export function methodNotAllowed(allowed: string) {
  return (req: Request, res: Response) => send(res, notAllowed(req.method, req.path, allowed));
}

const ROUTES =
  "POST /usage/transactions, POST /v1/traces, GET /usage/costs, GET /usage/unpriced, GET /usage/budgets, GET /usage/records, GET /usage/records/{message_id}, GET /usage/reconciliation, /v1/orgs/{org}/... (the management API), GET /dashboard, GET /openapi.json, GET /healthz";

export function notFound(req: Request, res: Response) {
  send(res, routeNotFound(req.method, req.path, ROUTES));
}

/**
 * Where every error a route throws is answered: a typed error of the packages as the error map says (a
 * report past its ceiling, 422), anything else as the last resort, where the client gets a generic message
 * and the request id and the log gets the detail.
 */
export function answerErrors(logger: Logger) {
  return (error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error);
    const known = errorReply(error);
    if (known) return send(res, known);
    const { requestId, trace } = locals(res);
    logger.log("ERROR", "unhandled error", {
      request_id: requestId,
      trace,
      error: error instanceof Error ? error : String(error),
    });
    send(res, internalError(`An internal error occurred; quote request id ${requestId}.`));
  };
}
