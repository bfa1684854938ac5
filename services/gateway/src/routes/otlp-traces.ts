import type { KeyStore } from "@usage-ingestion/organizations";
import { type ErrorReply, MAX_BODY_BYTES, MAX_TRANSACTIONS_PER_BULK } from "@usage-ingestion/shared";
import type { Logger } from "@usage-ingestion/shared/server";
import express, { type NextFunction, type Request, type RequestHandler, type Response } from "express";
import { authenticate } from "../auth/authenticate.ts";
import { isUndecodable, unacceptedEncoding } from "../http/content-encoding.ts";
import { locals } from "../http/send.ts";
import type { Candidate } from "../ingest/candidates.ts";
import { ingestTransactions } from "../ingest/ingest-transactions.ts";
import { chargeDeclaredBody } from "../limits/limit-requests.ts";
import type { RateLimits } from "../limits/rate-limits.ts";
import { requestCost } from "../limits/request-cost.ts";
import { billableCalls, type ReadCall, readCalls } from "../otlp/billable-calls.ts";
import { decodeTraces, formatOf, type OtlpFormat } from "../otlp/decode.ts";
import { PairingUnavailableError } from "../otlp/firestore-pairing.ts";
import { memoryPairing } from "../otlp/memory-pairing.ts";
import type { CallPairing } from "../otlp/one-call-once.ts";
import {
  type OtlpError,
  otlpErrorOf,
  RETRY_AFTER_SECONDS,
  sendExportResponse,
  sendOtlpError,
} from "../otlp/otlp-answers.ts";
import type { Publisher } from "../queue/publisher.ts";

export interface OtlpTracesDeps {
  keys: KeyStore;
  publisher: Publisher;
  logger: Logger;
  limits: RateLimits;
  /** Notes each key used, for its `last_used_at`. */
  keyUsed?: (keyHash: string) => void;
  /** What is known of recent model-call spans (one call billed once); absent, this instance's memory. */
  pairing?: CallPairing;
}

/** Reasons listed in a partial_success message; the count says how many more there were. */
const REASONS_LISTED = 5;

/** The encoding answers use: the request's, or JSON when it named none we take. */
const answerFormat = (req: Request): OtlpFormat => formatOf(req.headers["content-type"]) ?? "json";
/** Answers an error in OTLP's own form; undefined, so that a step that refuses can return it. */
const refuse = (res: Response, error: OtlpError): undefined => {
  sendOtlpError(res, answerFormat(res.req), error);
};
const refuseReply = (res: Response, reply: ErrorReply) => refuse(res, otlpErrorOf(reply));

const readBody = express.raw({ type: () => true, limit: MAX_BODY_BYTES });

/**
 * POST /v1/traces, OTLP/HTTP: every span that is a model call becomes one transaction, judged and queued
 * exactly as POST /usage/transactions judges and queues its own. Order of checks: request id -> API key
 * -> content type -> body size (gzip inflated) -> decode -> spans -> rate limits -> one call once
 * (the pairing) -> validation -> publish.
 */
export function otlpTraces(deps: OtlpTracesDeps): RequestHandler[] {
  const withPairing = { ...deps, pairing: deps.pairing ?? memoryPairing() };
  return [
    authenticate(deps.keys, deps.logger, deps.limits, "ingest", refuseReply, deps.keyUsed),
    (req: Request, res: Response, next: NextFunction) => {
      const verdict = chargeDeclaredBody(deps.limits, req, res);
      if (verdict && !verdict.ok) return refuseReply(res, verdict.reply);
      next();
    },
    readTraces,
    ingestSpans(withPairing),
  ];
}

function readTraces(req: Request, res: Response, next: NextFunction) {
  if (!formatOf(req.headers["content-type"])) {
    const given = req.headers["content-type"] ?? "none";
    return refuse(res, {
      status: 415,
      message: `The Content-Type must be application/x-protobuf or application/json, not ${given}.`,
    });
  }
  const encoding = unacceptedEncoding(req.headers);
  if (encoding !== undefined) {
    return refuse(res, {
      status: 415,
      message: `The Content-Encoding ${encoding} is not supported; use gzip or none.`,
    });
  }
  readBody(req, res, (error?: unknown) => {
    if (!error) return next();
    switch ((error as { type?: string }).type) {
      case "entity.too.large":
        return refuse(res, { status: 413, message: `The body is larger than ${MAX_BODY_BYTES} bytes (after gzip).` });
      case "encoding.unsupported":
        return refuse(res, { status: 415, message: "The Content-Encoding is not supported; use gzip or none." });
      case "request.aborted":
      case "request.size.invalid":
        return refuse(res, { status: 400, message: "The request body was incomplete." });
      default:
        if (isUndecodable(error as { status?: number })) {
          return refuse(res, { status: 400, message: "The request body does not decompress as gzip." });
        }
        return next(error);
    }
  });
}

function ingestSpans(deps: OtlpTracesDeps & { pairing: CallPairing }) {
  return async (req: Request, res: Response) => {
    const format = answerFormat(req);
    const read = readSpans(req, res, deps);
    if (!read) return;
    let candidates: Candidate[];
    try {
      candidates = await modelCalls(read.calls, read.organization, deps.pairing);
    } catch (error) {
      if (!(error instanceof PairingUnavailableError)) throw error;
      // Nothing is queued: billing without knowing the call's other span could bill it twice.
      deps.logger.log("WARNING", "OTLP export refused: one call once cannot be decided", { error });
      return refuse(res, {
        status: 503,
        message: "The export could not be taken now; retry it.",
        headers: { "Retry-After": String(RETRY_AFTER_SECONDS) },
      });
    }
    const outcomes = await ingestTransactions(candidates, locals(res), deps).outcomes;
    const notQueued = outcomes.filter((outcome) => outcome.kind === "not_queued").length;
    if (notQueued > 0) {
      // Resending the whole export is safe: each span's transaction_id bills it once.
      return refuse(res, {
        status: 503,
        message: `${notQueued} of ${outcomes.length} model-call span(s) could not be queued; retry the export.`,
        headers: { "Retry-After": String(RETRY_AFTER_SECONDS) },
      });
    }
    const reasons = outcomes.flatMap((outcome) => (outcome.kind === "invalid" ? [outcome.error] : []));
    sendExportResponse(res, format, reasons.length, rejectionMessage(reasons));
  };
}

/**
 * Decodes the export, reads its model calls and counts them against the rate limits; undefined once a
 * refusal is answered. Kept apart from the route so that while the pairing and Pub/Sub answer, the
 * request holds neither the body nor any decoded span but its model calls'.
 */
function readSpans(
  req: Request,
  res: Response,
  { limits }: OtlpTracesDeps,
): { calls: ReadCall[]; organization: string } | undefined {
  const context = locals(res);
  const body: unknown = req.body;
  const bytes = Buffer.isBuffer(body) ? body.length : 0;
  const decoded = decodeTraces(Buffer.isBuffer(body) ? body : Buffer.alloc(0), answerFormat(req));
  req.body = undefined;
  const charge = (transactions: number, values: number) =>
    limits.ingest(
      context.organizationId as string,
      context.key?.limits,
      context.key?.hash ?? "",
      Math.max(0, requestCost(transactions, bytes, values) - (context.charged ?? 0)),
    );
  if (!decoded.ok) {
    // A refused export is charged its bytes too: refusing is not free work.
    const verdict = charge(1, 0);
    if (!verdict.ok) return refuseReply(res, verdict.reply);
    return refuse(res, { status: decoded.status, message: decoded.message });
  }

  const calls = readCalls(decoded.spans, context.otel ?? {});
  // A wrapper of another call in the export is never taken: neither counted nor charged.
  const taken = calls.filter((call) => !call.wrapsInExport).length;
  if (taken > MAX_TRANSACTIONS_PER_BULK) {
    return refuse(res, {
      status: 413,
      message: `The request holds ${taken} model-call spans; at most ${MAX_TRANSACTIONS_PER_BULK} are taken at once.`,
    });
  }
  // The spans that become transactions count against the rate limits as transactions do (a request
  // without any counts as one, as an empty bulk does, so no request is free), or its bytes and the spans
  // and attributes read, where they weigh more (requestCost).
  const verdict = charge(Math.max(1, taken), decoded.values);
  if (!verdict.ok) return refuseReply(res, verdict.reply);
  res.set(verdict.headers);
  return { calls, organization: context.organizationId as string };
}

/** The model calls to bill, each as its transaction or the reason it cannot be one. */
async function modelCalls(
  calls: readonly ReadCall[],
  organization: string,
  pairing: CallPairing,
): Promise<Candidate[]> {
  return (await billableCalls(calls, organization, pairing)).map(({ span, verdict }) => {
    const id = `${span.traceId}/${span.spanId}`;
    return verdict.kind === "transaction"
      ? { input: verdict.transaction, name: `span ${id}` }
      : { invalid: `span ${id}: ${verdict.reason}` };
  });
}

function rejectionMessage(reasons: readonly string[]): string {
  if (reasons.length === 0) return "";
  const listed = reasons.slice(0, REASONS_LISTED).join("; ");
  const more = reasons.length > REASONS_LISTED ? `; and ${reasons.length - REASONS_LISTED} more` : "";
  return `${reasons.length} model-call span(s) rejected: ${listed}${more}`;
}
