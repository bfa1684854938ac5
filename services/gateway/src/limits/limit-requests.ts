import type { NextFunction, Request, Response } from "express";
import { locals, send } from "../http/send.ts";
import type { RateLimits, Verdict } from "./rate-limits.ts";
import { chargeBeforeReading, requestCost } from "./request-cost.ts";

/**
 * Before a large body is read: its declared bytes against the rates (chargeBeforeReading), so that a
 * tenant past its limit is refused before its body costs anything; undefined when nothing is charged.
 * The charge is kept in `locals(res).charged` and taken off the charge after parsing.
 */
export function chargeDeclaredBody(limits: RateLimits, req: Request, res: Response): Verdict | undefined {
  const units = chargeBeforeReading(req.headers["content-length"]);
  if (units === 0) return undefined;
  const context = locals(res);
  context.charged = units;
  const verdict = limits.ingest(context.organizationId as string, context.key?.limits, context.key?.hash ?? "", units);
  if (!verdict.ok) {
    // The body is never read: the connection is closed once the answer is out, rather than kept alive
    // by reading (and discarding) megabytes this request was refused for.
    res.setHeader("Connection", "close");
    res.once("finish", () => req.socket.destroy());
  }
  return verdict;
}

/** Before parseUsageBody: a large body's declared bytes charged, 429 before reading it when over. */
export function limitDeclaredBody(limits: RateLimits) {
  return (req: Request, res: Response, next: NextFunction) => {
    const verdict = chargeDeclaredBody(limits, req, res);
    if (verdict && !verdict.ok) return send(res, verdict.reply);
    next();
  };
}

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
    const { organizationId, key, bodyText, bodyValues, refusal, charged = 0 } = locals(res);
    const full = requestCost(refusal ? 1 : transactionsIn(req.body), bodyText?.length ?? 0, bodyValues ?? 0);
    const cost = Math.max(0, full - charged);
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
