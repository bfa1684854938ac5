import { type ErrorReply, errorBody, withTimeout } from "@usage-ingestion/shared";

/** The most one report may read and take; past either it is answered 422, never by running out of memory. */
export interface ReportLimits {
  maxDocuments: number;
  timeoutMs: number;
}

export const DEFAULT_REPORT_LIMITS: ReportLimits = { maxDocuments: 50_000, timeoutMs: 15_000 };

/** A report stopped at its ceiling, with what it had read and how long it had taken. */
export class ReportTooLarge extends Error {
  override name = "ReportTooLarge";
  constructor(
    readonly documentsRead: number,
    readonly elapsedMs: number,
    readonly limits: ReportLimits,
  ) {
    const past =
      documentsRead > limits.maxDocuments
        ? `it would read more than ${limits.maxDocuments} documents (${documentsRead} read so far)`
        : `it would take longer than ${limits.timeoutMs} ms (${documentsRead} documents read in ${elapsedMs} ms)`;
    super(`This report is too large: ${past}; narrow the range or the grouping.`);
  }
}

/** Counts what a report reads against its limits, as it reads; throws ReportTooLarge past either. */
export class ReportBudget {
  private read = 0;
  private readonly started: number;

  constructor(
    readonly limits: ReportLimits = DEFAULT_REPORT_LIMITS,
    private readonly now: () => number = Date.now,
  ) {
    this.started = now();
  }

  /** Documents read so far. */
  get documentsRead(): number {
    return this.read;
  }

  /** `documents` more were read. */
  spend(documents: number): void {
    this.read += documents;
    const elapsed = this.now() - this.started;
    if (this.read > this.limits.maxDocuments || elapsed > this.limits.timeoutMs) {
      throw new ReportTooLarge(this.read, elapsed, this.limits);
    }
  }

  /** How long the next read may take: what is left of the report's time. */
  remainingMs(): number {
    return Math.max(0, this.limits.timeoutMs - (this.now() - this.started));
  }

  timedOut(): ReportTooLarge {
    return new ReportTooLarge(this.read, this.now() - this.started, this.limits);
  }
}

/**
 * Reads a source's pages into `each`, one page held at a time, counting each page against the budget and
 * bounding each read by the time the report has left (a read that stalls ends the report, not the process).
 */
export async function readPages<T>(
  source: AsyncIterable<T[]>,
  budget: ReportBudget,
  each: (item: T) => void,
): Promise<void> {
  const iterator = source[Symbol.asyncIterator]();
  let done = false;
  try {
    while (!done) {
      const next = await withTimeout(iterator.next(), budget.remainingMs(), () => budget.timedOut());
      done = next.done === true;
      if (done) break;
      budget.spend(next.value.length);
      for (const item of next.value) each(item);
    }
  } finally {
    // Stopped early: let the source go (a read still in flight settles on its own, unawaited).
    if (!done) iterator.return?.().catch(() => {});
  }
}

/** 422 `report_too_large`, with the figures and what to do. */
export const reportTooLarge = (error: ReportTooLarge): ErrorReply => ({
  status: 422,
  body: errorBody("report_too_large", error.message),
});
