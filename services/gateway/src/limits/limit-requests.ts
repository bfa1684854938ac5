import type { NextFunction, Request, Response } from "express";
import { locals, send } from "../http/send.ts";
import type { RateLimits, Verdict } from "./rate-limits.ts";
import { requestCost } from "./request-cost.ts";

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

/**
 * After authentication and parsing: the body's transactions, or its bytes and values if they weigh more
 * (requestCost), against the key's and organization's rates. A body parseUsageBody refused is charged
 * its bytes, then answered its refusal.
 */
export function limitIngestion(limits: RateLimits) {
  return (req: Request, res: Response, next: NextFunction) => {
    const { organizationId, key, bodyText, bodyValues, refusal } = locals(res);
    const cost = requestCost(refusal ? 1 : transactionsIn(req.body), bodyText?.length ?? 0, bodyValues ?? 0);
    const verdict = limits.ingest(organizationId as string, key?.limits, key?.hash ?? "", cost);
    if (refusal && verdict.ok) return send(res, refusal);
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
