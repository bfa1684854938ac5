import { randomUUID } from "node:crypto";
import type { Logger, Severity } from "@usage-ingestion/shared/server";
import type { NextFunction, Request, Response } from "express";
import { locals } from "./send.ts";

const severityOf = (status: number): Severity => (status >= 500 ? "ERROR" : status >= 400 ? "WARNING" : "INFO");

/**
 * Gives every request a fresh id (sent back as X-Request-Id, errors included) and writes one log line
 * when the response is done. Nothing from the body or the key reaches the log.
 */
export function requestContext(logger: Logger, now: () => Date) {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    const context = locals(res);
    context.requestId = randomUUID();
    context.receivedAt = now();
    res.setHeader("X-Request-Id", context.requestId);
    res.on("finish", () => {
      const latencyMs = Number(process.hrtime.bigint() - started) / 1e6;
      logger.log(severityOf(res.statusCode), `${req.method} ${req.path} ${res.statusCode}`, {
        request_id: context.requestId,
        organization_id: context.organizationId,
        status: res.statusCode,
        events_queued: context.eventsQueued,
        events_failed: context.eventsFailed,
        latency_ms: Math.round(latencyMs * 100) / 100,
        httpRequest: {
          requestMethod: req.method,
          requestUrl: req.path,
          status: res.statusCode,
          latency: `${(latencyMs / 1000).toFixed(6)}s`,
          userAgent: req.get("user-agent"),
          remoteIp: req.ip,
        },
      });
    });
    next();
  };
}
