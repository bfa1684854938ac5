import type { Contribution } from "./contribution.ts";
import type { ReportField } from "./report-fields.ts";
import { ROLLUP_QUANTITIES } from "./rollups.ts";
import type { SummaryColumns } from "./summary-columns.ts";

/** Nanos below this in size are added as numbers. */
const SMALL = 2 ** 50;
/** The running number is moved into the BigInt past this: adding one more small value stays below 2^53. */
const MOVE_AT = 2 ** 52;

/**
 * One group's counters. Nanos are exact: small ones (as summaries hold almost all of them) are added as
 * numbers while the running number is surely below 2^53, then moved into a BigInt; larger ones go to the
 * BigInt at once. A report sums hundreds of thousands of cells: a BigInt and objects per cell were most
 * of its time.
 */
export class Sum {
  transactions = 0;
  unpriced = 0;
  conflicts = 0;
  readonly quantities = new Float64Array(ROLLUP_QUANTITIES.length);
  private small = 0;
  private big = 0n;

  constructor(readonly key: Partial<Record<ReportField, string | null>>) {}

  /** Integer nanos, a safe integer or decimal text. */
  private addNanos(nanos: number | string) {
    if (typeof nanos === "string" || nanos >= SMALL || nanos <= -SMALL) {
      this.big += BigInt(nanos);
      return;
    }
    this.small += nanos;
    if (this.small > MOVE_AT || this.small < -MOVE_AT) {
      this.big += BigInt(this.small);
      this.small = 0;
    }
  }

  /** The exact sum of nanos. */
  nanos(): bigint {
    return this.big + BigInt(this.small);
  }

  addContribution(part: Contribution): void {
    this.big += part.cost_nanos;
    this.transactions += part.transactions;
    this.unpriced += part.unpriced_transactions;
    this.conflicts += part.conflict_transactions;
    for (let i = 0; i < ROLLUP_QUANTITIES.length; i++) {
      const name = ROLLUP_QUANTITIES[i] as (typeof ROLLUP_QUANTITIES)[number];
      this.quantities[i] = (this.quantities[i] as number) + part.quantities[name];
    }
  }

  /** Cell `i` of a summary's columns, as summaryCells and fromRollup would count it, without building either. */
  addColumns(columns: SummaryColumns, i: number): void {
    this.transactions += columns.transactions[i] ?? 0;
    this.unpriced += columns.unpriced[i] ?? 0;
    this.conflicts += columns.conflicts[i] ?? 0;
    this.addNanos(columns.nanos[i] ?? 0);
    for (let q = 0; q < ROLLUP_QUANTITIES.length; q++) {
      this.quantities[q] = (this.quantities[q] as number) + (columns.quantities[q]?.[i] ?? 0);
    }
  }
}
