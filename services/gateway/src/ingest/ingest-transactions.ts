import { type FieldError, type TransactionOutcome, traceAttributes } from "@usage-ingestion/shared";
import type { Logger, PublishOutcome } from "@usage-ingestion/shared/server";
import type { RequestLocals } from "../http/send.ts";
import type { Publisher } from "../queue/publisher.ts";
import { transactionTexts } from "../queue/transaction-texts.ts";
import { type Candidate, judgeCandidates } from "./candidates.ts";
import { queueMessages, transactionOutcomes } from "./queue-transactions.ts";

export interface IngestDeps {
  publisher: Publisher;
  logger: Logger;
}

export interface IngestOptions {
  /**
   * The JSON body the candidates were parsed from, when they were (POST /usage/transactions): its size
   * spares small bodies the size check, and each valid transaction's own text in it is sent as it is
   * (transaction-texts.ts). `bulk`: the body is a bulk request, its transactions the candidates.
   */
  body?: { text: Buffer; bulk: boolean };
  /** Queue nothing when no candidate is valid, and say why (the usage API answers 400 then; OTLP does not). */
  refuseIfNoneValid?: boolean;
}

/** Either every candidate's outcome, in request order, once Pub/Sub has answered; or why none was queued. */
export type Ingestion = { refused: FieldError[] } | { outcomes: Promise<TransactionOutcome[]> };

/**
 * The one ingest path behind POST /usage/transactions and POST /v1/traces: judges the candidates, builds
 * one queue message per valid one, publishes them together (with the request's trace, and their own
 * texts from the body where they can be sent as they are), and says what became of each; the request's
 * log line counts them (`context.eventsQueued` / `eventsFailed`).
 *
 * Not async on purpose: what the caller passes (the body's text, the candidates) is let go when this
 * returns, so while Pub/Sub answers the request holds only what its answer needs, not the body and its
 * validated transactions (most of a bulk's memory). Callers let go of their own references first.
 */
export function ingestTransactions(
  candidates: readonly Candidate[],
  context: RequestLocals,
  deps: IngestDeps,
  options: IngestOptions & { refuseIfNoneValid: true },
): Ingestion;
export function ingestTransactions(
  candidates: readonly Candidate[],
  context: RequestLocals,
  deps: IngestDeps,
  options?: IngestOptions & { refuseIfNoneValid?: false },
): Extract<Ingestion, { outcomes: unknown }>;
export function ingestTransactions(
  candidates: readonly Candidate[],
  context: RequestLocals,
  deps: IngestDeps,
  options: IngestOptions = {},
): Ingestion {
  const { body } = options;
  const judged = judgeCandidates(candidates, { jsonBytes: body?.text.length, dimensions: context.dimensions });
  if (options.refuseIfNoneValid && judged.valid.length === 0) return { refused: judged.errors };
  let published: Promise<PublishOutcome[]> | PublishOutcome[] = [];
  if (judged.valid.length > 0) {
    const messages = queueMessages(judged.valid, context);
    const request = { bulk: body?.bulk ?? false, transactions: candidates.length };
    const texts = body ? transactionTexts(body.text, request, judged.valid) : undefined;
    published = deps.publisher.publish(messages, traceAttributes(context.trace), texts);
  }
  return { outcomes: outcomesOf(judged.invalid, published, context, deps.logger) };
}

async function outcomesOf(
  invalid: ReadonlyArray<string | undefined>,
  publishing: Promise<PublishOutcome[]> | PublishOutcome[],
  context: RequestLocals,
  logger: Logger,
): Promise<TransactionOutcome[]> {
  const outcomes = transactionOutcomes(invalid, await publishing, context, logger);
  const queued = outcomes.filter((outcome) => outcome.kind === "queued").length;
  context.eventsQueued = queued;
  context.eventsFailed = outcomes.length - queued;
  return outcomes;
}
