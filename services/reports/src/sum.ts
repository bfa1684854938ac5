import { ROLLUP_QUANTITIES, type SummaryCell } from "@usage-ingestion/shared";
import type { Contribution } from "./contribution.ts";
import type { ReportField } from "./report-fields.ts";

/** A decimal text of at most this many characters is below 10^15 < 2^50 in size: exact as a number. */
const SMALL_TEXT = 15;
/** The running number is moved into the BigInt past this: adding one more small value stays below 2^53. */
const MOVE_AT = 2 ** 52;

/**
 * One group's counters. Nanos are exact: small ones (as summaries hold almost all of them) are added as
 * numbers while the running number is surely below 2^53, then moved into a BigInt; larger ones go to the
 * BigInt at once. A report sums hundreds of thousands of cells: one BigInt per cell was most of its time.
 */
export class Sum {
  transactions = 0;
  unpriced = 0;
  conflicts = 0;
  readonly quantities = new Float64Array(ROLLUP_QUANTITIES.length);
  private small = 0;
  private big = 0n;

  constructor(readonly key: Partial<Record<ReportField, string | null>>) {}

  private addNanosText(text: string) {
    if (text.length > SMALL_TEXT) {
      this.big += BigInt(text);
      return;
    }
    this.small += Number(text);
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

  /** A summary cell, as summaryCells and fromRollup would count it, without building either. */
  addCell(cell: SummaryCell): void {
    this.transactions += cell[5];
    this.unpriced += cell[6];
    this.conflicts += cell[7];
    this.addNanosText(cell[8]);
    const quantities = cell[9];
    for (let i = 0; i < ROLLUP_QUANTITIES.length; i++) {
      this.quantities[i] = (this.quantities[i] as number) + (quantities[i] ?? 0);
    }
  }
}
