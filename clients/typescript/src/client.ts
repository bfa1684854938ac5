import { sleep } from "./backoff.ts";
import { batchesOf, jsonBytes, type Queued } from "./batches.ts";
import { type BudgetFilter, type BudgetsAnswer, readBudgets } from "./budgets.ts";
import { deliverBatch } from "./deliver.ts";
import { randomId } from "./ids.ts";
import type { DeliveryFailure, FlushResult, TrackedTransaction } from "./types.ts";

/** The service's own bounds: at most 1000 transactions and 5 MiB in one request. */
export const MAX_BATCH_SIZE = 1000;
export const MAX_BATCH_BYTES = 5 * 1024 * 1024;

export interface ClientOptions {
  /** Where the service answers, e.g. `https://usage.example.com` (no trailing path). */
  baseUrl: string;
  apiKey: string;
  /** The `fetch` to use; the global one by default. */
  fetch?: typeof fetch;
  /** Send as soon as this many transactions wait (1-1000, default 100). */
  flushAt?: number;
  /** Send what waits at the latest this long after the first one arrived (default 5000 ms). */
  flushIntervalMs?: number;
  /** Retries after the first attempt, for 5xx answers, queueing failures, network errors (default 5). */
  maxRetries?: number;
  /** First backoff ceiling; it doubles per retry up to `retryMaxDelayMs` (defaults 500 and 30000 ms). */
  retryBaseDelayMs?: number;
  retryMaxDelayMs?: number;
  /** One request's time limit (default 10000 ms); a time-out is retried like a network error. */
  timeoutMs?: number;
  /** Called with every transaction that could not be delivered, as soon as that is known. */
  onError?: (failures: DeliveryFailure[]) => void;
  /** Makes the ids given to transactions without one (default: a random UUID, `crypto.randomUUID`). */
  generateId?: () => string;
  /** Jitter source in [0, 1) (default `Math.random`). */
  random?: () => number;
  /** A key of scope `read`, for `budgets()`; absent, `apiKey` is used (a client made with a read key). */
  readKey?: string;
}

export interface UsageClient {
  /** Queues one transaction for sending and returns its `transaction_id` (the caller's, or a new one). */
  track(transaction: TrackedTransaction): string;
  /** Sends everything queued and waits for every send under way; reports what became of each. */
  flush(): Promise<FlushResult>;
  /** Flushes, then refuses further transactions. */
  close(): Promise<FlushResult>;
  /**
   * The budgets a call with these values counts towards, with their spent now (`GET /usage/budgets`, a
   * read key): to refuse or downgrade a call before spending. Throws BudgetsError when not answered 200.
   */
  budgets(filter?: BudgetFilter): Promise<BudgetsAnswer>;
}

export function createClient(options: ClientOptions): UsageClient {
  const flushAt = Math.min(MAX_BATCH_SIZE, Math.max(1, Math.floor(options.flushAt ?? 100)));
  const flushIntervalMs = options.flushIntervalMs ?? 5_000;
  const generateId = options.generateId ?? randomId;
  const deliver = {
    url: `${options.baseUrl.replace(/\/+$/, "")}/usage/transactions`,
    apiKey: options.apiKey,
    // Called through a wrapper: some runtimes refuse `fetch` called with another `this`.
    fetch: options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args)),
    timeoutMs: options.timeoutMs ?? 10_000,
    maxRetries: Math.max(0, options.maxRetries ?? 5),
    baseDelayMs: options.retryBaseDelayMs ?? 500,
    maxDelayMs: options.retryMaxDelayMs ?? 30_000,
    random: options.random ?? Math.random,
    sleep,
  };

  let buffer: Queued[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  const inFlight = new Set<Promise<void>>();
  /** Outcomes not yet returned by a `flush`. */
  let settled: FlushResult = { delivered: [], failed: [] };

  const record = (result: FlushResult) => {
    settled.delivered.push(...result.delivered);
    settled.failed.push(...result.failed);
    if (result.failed.length > 0) reportFailures(result.failed);
  };
  const reportFailures = (failures: DeliveryFailure[]) => {
    try {
      options.onError?.(failures);
    } catch {
      // A throwing callback must not lose the other outcomes; they are still in flush's result.
    }
  };

  const send = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    const taken = buffer;
    buffer = [];
    for (const batch of batchesOf(taken, flushAt, MAX_BATCH_BYTES)) {
      const sending = deliverBatch(deliver, batch).then(record, (error: unknown) =>
        record({
          delivered: [],
          failed: batch.map((transaction) => ({
            transaction,
            reason: "retries_exhausted" as const,
            error: `unexpected error: ${error instanceof Error ? error.message : String(error)}`,
          })),
        }),
      );
      inFlight.add(sending);
      void sending.finally(() => inFlight.delete(sending));
    }
  };

  const flush = async (): Promise<FlushResult> => {
    send();
    while (inFlight.size > 0) await Promise.all([...inFlight]);
    const result = settled;
    settled = { delivered: [], failed: [] };
    return result;
  };

  return {
    track(transaction) {
      const tracked = { ...transaction, transaction_id: transaction.transaction_id ?? generateId() };
      const refuse = (reason: "closed" | "invalid", error: string) => {
        const failure = { transaction: tracked, reason, error };
        settled.failed.push(failure);
        reportFailures([failure]);
        return tracked.transaction_id;
      };
      if (closed) return refuse("closed", "the client is closed");
      let bytes: number;
      try {
        bytes = jsonBytes(tracked);
      } catch (error) {
        return refuse("invalid", `cannot be sent as JSON: ${error instanceof Error ? error.message : String(error)}`);
      }
      buffer.push({ transaction: tracked, bytes });
      if (buffer.length >= flushAt) send();
      // The timer keeps a Node process alive until what waits is sent: a script that forgets close()
      // exits a little later rather than without its usage.
      else if (timer === undefined) timer = setTimeout(send, flushIntervalMs);
      return tracked.transaction_id;
    },
    flush,
    async close() {
      closed = true;
      return flush();
    },
    budgets: (filter) =>
      readBudgets(
        {
          baseUrl: options.baseUrl.replace(/\/+$/, ""),
          apiKey: options.readKey ?? options.apiKey,
          fetch: deliver.fetch,
          timeoutMs: deliver.timeoutMs,
        },
        filter,
      ),
  };
}
