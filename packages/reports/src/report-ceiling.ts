import { withTimeout } from "@usage-ingestion/shared";

/**
 * The most one report may read, take and hold; past any it stops with ReportTooLarge, never by running
 * out of memory. `maxGroups` bounds the groups it holds (each about a kilobyte while it is summed): a
 * report that reads few documents can still hold many groups, every day by every customer and model.
 */
export interface ReportLimits {
  maxDocuments: number;
  timeoutMs: number;
  maxGroups: number;
}

export const DEFAULT_REPORT_LIMITS: ReportLimits = { maxDocuments: 50_000, timeoutMs: 15_000, maxGroups: 50_000 };

/**
 * Why a report stopped short of its answer: `too_large` at its own ceilings, `busy` when the reports beside
 * it hold the process's groups. Each caller says what that means to its own (the gateway's error map an
 * HTTP answer, the command line a message); the reports know nothing of HTTP.
 */
export abstract class ReportStopped extends Error {
  abstract readonly reason: "too_large" | "busy";
}

/** A report stopped at its ceiling, with what it had read, held and how long it had taken. */
export class ReportTooLarge extends ReportStopped {
  override name = "ReportTooLarge";
  readonly reason = "too_large";
  constructor(
    readonly documentsRead: number,
    readonly elapsedMs: number,
    readonly limits: ReportLimits,
    readonly groups = 0,
  ) {
    const past =
      groups > limits.maxGroups
        ? `it would hold more than ${limits.maxGroups} groups (${groups} after ${documentsRead} documents)`
        : documentsRead > limits.maxDocuments
          ? `it would read more than ${limits.maxDocuments} documents (${documentsRead} read so far)`
          : `it would take longer than ${limits.timeoutMs} ms (${documentsRead} documents read in ${elapsedMs} ms)`;
    super(`This report is too large: ${past}; narrow the range or the grouping.`);
  }
}

/**
 * The groups every report running in this process holds together, against a ceiling: several reports at
 * once, each under its own ceiling, must not together run the process out of memory.
 */
export class GroupPool {
  held = 0;
  constructor(readonly max: number) {}
}

/** A report stopped because the reports running beside it hold the process's share of groups. */
export class ReportsBusy extends ReportStopped {
  override name = "ReportsBusy";
  readonly reason = "busy";
  constructor(readonly pool: GroupPool) {
    super(`The reports running on this instance hold more than ${pool.max} groups together; retry shortly.`);
  }
}

/** Counts what a report reads against its limits, as it reads; throws ReportTooLarge past either. */
export class ReportCeiling {
  private read = 0;
  private groups = 0;
  private readonly started: number;

  constructor(
    readonly limits: ReportLimits = DEFAULT_REPORT_LIMITS,
    private readonly now: () => number = Date.now,
    private readonly pool?: GroupPool,
  ) {
    this.started = now();
  }

  /** One more group held; past the report's ceiling ReportTooLarge, past the process's pool ReportsBusy. */
  newGroup(): void {
    this.groups += 1;
    if (this.pool) this.pool.held += 1;
    if (this.groups > this.limits.maxGroups) {
      throw new ReportTooLarge(this.read, this.now() - this.started, this.limits, this.groups);
    }
    if (this.pool && this.pool.held > this.pool.max) throw new ReportsBusy(this.pool);
  }

  /** Gives the groups back to the pool: the report has its answer, or has failed. */
  release(): void {
    if (this.pool) this.pool.held -= this.groups;
    this.groups = 0;
  }

  /** Runs a report within these ceilings, giving its groups back however it ends. */
  async around<T>(report: () => Promise<T>): Promise<T> {
    try {
      return await report();
    } finally {
      this.release();
    }
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
 * Reads a source's pages into `each`, one page held at a time, counting each page against the ceilings and
 * bounding each read by the time the report has left (a read that stalls ends the report, not the process).
 */
export async function readPages<T>(
  source: AsyncIterable<T[]>,
  ceiling: ReportCeiling,
  each: (item: T) => void,
): Promise<void> {
  const iterator = source[Symbol.asyncIterator]();
  let done = false;
  try {
    while (!done) {
      const next = await withTimeout(iterator.next(), ceiling.remainingMs(), () => ceiling.timedOut());
      done = next.done === true;
      if (done) break;
      ceiling.spend(next.value.length);
      for (const item of next.value) each(item);
    }
  } finally {
    // Stopped early: let the source go (a read still in flight settles on its own, unawaited).
    if (!done) iterator.return?.().catch(() => {});
  }
}
