import type { Contribution } from "./contribution.ts";
import { ExactSum } from "./exact-sum.ts";
import type { ReportField } from "./report-fields.ts";
import { ROLLUP_QUANTITIES } from "./rollups.ts";
import type { SummaryColumns } from "./summary-columns.ts";

/**
 * One group's counters. Money is exact (exact-sum.ts): nano-USD of our cost, and the like-with-like
 * figures of the priced records that carry the vendor's own cost (decision 0031): their count, the
 * vendor's cost in pico-USD and ours in nano-USD.
 */
export class Sum {
  transactions = 0;
  unpriced = 0;
  conflicts = 0;
  reported = 0;
  readonly quantities = new Float64Array(ROLLUP_QUANTITIES.length);
  private readonly cost = new ExactSum();
  private readonly reportedPicos = new ExactSum();
  private readonly reportedNanos = new ExactSum();

  constructor(readonly key: Partial<Record<ReportField, string | null>>) {}

  /** The exact sum of nanos. */
  nanos(): bigint {
    return this.cost.value();
  }

  /** The vendor's own cost of the records that carry one, in pico-USD, and ours of the same records, in nano-USD. */
  reportedFigures(): { picos: bigint; nanos: bigint } {
    return { picos: this.reportedPicos.value(), nanos: this.reportedNanos.value() };
  }

  addContribution(part: Contribution): void {
    this.cost.addBig(part.cost_nanos);
    this.transactions += part.transactions;
    this.unpriced += part.unpriced_transactions;
    this.conflicts += part.conflict_transactions;
    for (let i = 0; i < ROLLUP_QUANTITIES.length; i++) {
      const name = ROLLUP_QUANTITIES[i] as (typeof ROLLUP_QUANTITIES)[number];
      this.quantities[i] = (this.quantities[i] as number) + part.quantities[name];
    }
    if (part.reported_transactions !== 0) {
      this.reported += part.reported_transactions;
      this.reportedPicos.addBig(part.reported_picos);
      this.reportedNanos.addBig(part.reported_nanos);
    }
  }

  /** Cell `i` of a summary's columns, as summaryCells and fromRollup would count it, without building either. */
  addColumns(columns: SummaryColumns, i: number): void {
    this.transactions += columns.transactions[i] ?? 0;
    this.unpriced += columns.unpriced[i] ?? 0;
    this.conflicts += columns.conflicts[i] ?? 0;
    this.cost.add(columns.nanos[i] ?? 0);
    for (let q = 0; q < ROLLUP_QUANTITIES.length; q++) {
      this.quantities[q] = (this.quantities[q] as number) + (columns.quantities[q]?.[i] ?? 0);
    }
    // Parts without the columns (most, and every part written before them) hold none.
    const reported = columns.reported?.[i] ?? 0;
    if (reported !== 0) {
      this.reported += reported;
      this.reportedPicos.add(columns.reported_picos?.[i] ?? 0);
      this.reportedNanos.add(columns.reported_nanos?.[i] ?? 0);
    }
  }
}
