import { randomUUID } from "node:crypto";
import { parseTraceparent } from "@usage-ingestion/shared";
import type { Logger, Severity } from "@usage-ingestion/shared/server";
import type { NextFunction, Request, Response } from "express";
import { locals } from "./send.ts";

/** The status logged for a request whose client closed the connection before the answer. */
const CLIENT_CLOSED = 499;
const severityOf = (status: number): Severity => (status >= 500 ? "ERROR" : status >= 400 ? "WARNING" : "INFO");

/**
 * Gives every request a fresh id (sent back as X-Request-Id, errors included) and writes one log line
 * when the connection is done with it: also when the client went away before the answer (status 499,
 * `aborted`). The line carries the request's trace. Nothing from the body or the key reaches the log.
 */
export function requestContext(logger: Logger, now: () => Date) {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    const context = locals(res);
    context.requestId = randomUUID();
    context.receivedAt = now();
    context.trace = parseTraceparent(req.get("traceparent"));
    res.setHeader("X-Request-Id", context.requestId);
    res.once("close", () => {
      const latencyMs = Number(process.hrtime.bigint() - started) / 1e6;
      const aborted = !res.writableFinished;
      const status = aborted ? CLIENT_CLOSED : res.statusCode;
      const { method, path } = req;
      logger.log(severityOf(status), `${method} ${path} ${status}${aborted ? " aborted by the client" : ""}`, {
        request_id: context.requestId,
        organization_id: context.organizationId,
        status,
        aborted: aborted || undefined,
        trace: context.trace,
        events_queued: context.eventsQueued,
        events_failed: context.eventsFailed,
        latency_ms: Math.round(latencyMs * 100) / 100,
        httpRequest: {
          requestMethod: method,
          requestUrl: path,
          status,
          latency: `${(latencyMs / 1000).toFixed(6)}s`,
          userAgent: req.headers["user-agent"],
          remoteIp: req.ip,
        },
      });
    });
    next();
  };
}
