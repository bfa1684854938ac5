import { type BackoffOptions, backoffDelay } from "./backoff.ts";
import { type FieldError, QUEUEING_FAILURE_PREFIX } from "./contract.ts";
import { type Answer, type PostOptions, postBulk } from "./http.ts";
import type { Delivered, DeliveryFailure, FlushResult, TrackedTransaction } from "./types.ts";

export interface DeliverOptions extends PostOptions, BackoffOptions {
  maxRetries: number;
  sleep: (ms: number) => Promise<void>;
}

/**
 * Only the entries of a 207 whose error starts with the contract's queueing-failure text are sent again;
 * a validation failure would fail the same way every time.
 */
export { QUEUEING_FAILURE_PREFIX };

/** Statuses worth another try besides 500: overload, gateway and proxy time-outs. */
const RETRYABLE = new Set([408, 429, 500, 502, 503, 504]);

/**
 * Sends one batch (at most 1000 transactions, every one with a `transaction_id`) until each is queued
 * or has failed for good. A retry sends only what is still pending, under the same ids, so the service
 * bills each id once however often it arrives.
 */
export async function deliverBatch(options: DeliverOptions, batch: TrackedTransaction[]): Promise<FlushResult> {
  const delivered: Delivered[] = [];
  const failed: DeliveryFailure[] = [];
  let pending = batch;
  let last: Answer = { kind: "network", error: "not sent" };

  for (let attempt = 0; attempt <= options.maxRetries && pending.length > 0; attempt++) {
    if (attempt > 0) await options.sleep(backoffDelay(attempt, options));
    last = await postBulk(options, pending);
    if (last.kind === "network" || (RETRYABLE.has(last.status) && !last.results)) continue;

    const { status, error, results, details } = last;
    if (status === 202 || status === 207 || (status === 500 && results)) {
      const retry: TrackedTransaction[] = [];
      pending.forEach((transaction, index) => {
        const result = results?.find((r) => r.transaction_index === index);
        if (result?.message_id) {
          delivered.push({ transaction_id: transaction.transaction_id as string, message_id: result.message_id });
        } else if (result?.error && !result.error.startsWith(QUEUEING_FAILURE_PREFIX) && status !== 500) {
          failed.push({ transaction, reason: "invalid", error: result.error, status });
        } else {
          retry.push(transaction);
        }
      });
      pending = retry;
      continue;
    }
    const reason = status === 400 ? "invalid" : status === 401 ? "unauthorized" : "rejected";
    pending.forEach((transaction, index) => {
      // A bulk 400 names each transaction's field errors under `transactions.<index>`.
      const own = details?.filter((d) => ownedBy(d.field, index));
      failed.push(
        own && own.length > 0
          ? { transaction, reason, status, details: own, error: describeDetails(status, own) }
          : { transaction, reason, status, error },
      );
    });
    pending = [];
  }

  for (const transaction of pending) {
    failed.push({
      transaction,
      reason: "retries_exhausted",
      error: `gave up after ${options.maxRetries + 1} attempt(s); last: ${last.error}`,
      ...(last.kind === "http" ? { status: last.status } : {}),
    });
  }
  return { delivered, failed };
}

const ownedBy = (field: string, index: number) =>
  field === `transactions.${index}` || field.startsWith(`transactions.${index}.`);

const describeDetails = (status: number, details: FieldError[]) =>
  `HTTP ${status} validation_error: ${details.map((d) => `${d.field} (${d.code}): ${d.message}`).join("; ")}`;
