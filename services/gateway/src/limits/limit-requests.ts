import type { NextFunction, Request, Response } from "express";
import { locals, send } from "../http/send.ts";
import type { RateLimits, Verdict } from "./rate-limits.ts";

/** Answers 429 when the verdict refuses, else sets its RateLimit headers and goes on. */
function apply(verdict: Verdict, res: Response, next: NextFunction) {
  if (!verdict.ok) return send(res, verdict.reply);
  for (const name in verdict.headers) res.setHeader(name, verdict.headers[name] as string);
  next();
}

/** The transactions a parsed body holds, as the rate limits count them (validation judges them later). */
function transactionsIn(body: unknown): number {
  const list = (body as { transactions?: unknown } | null)?.transactions;
  return Array.isArray(list) ? Math.max(1, list.length) : 1;
}

/** After authentication and parsing: the body's transactions against the key's and organization's rates. */
export function limitIngestion(limits: RateLimits) {
  return (req: Request, res: Response, next: NextFunction) => {
    const { organizationId, key } = locals(res);
    const verdict = limits.ingest(organizationId as string, key?.limits, key?.hash ?? "", transactionsIn(req.body));
    apply(verdict, res, next);
  };
}

/** After authentication with a read key: one report request for the key and its organization. */
export function limitReports(limits: RateLimits) {
  return (_req: Request, res: Response, next: NextFunction) => {
    const { organizationId, key } = locals(res);
    apply(limits.reports(organizationId as string, key?.limits, key?.hash ?? ""), res, next);
  };
}
