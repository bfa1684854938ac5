import { nanosToUsd, type Quantities, ROLLUP_QUANTITIES, zeroQuantities } from "@usage-ingestion/shared";
import type { Contribution } from "./contribution.ts";
import type { ReportField } from "./report-fields.ts";

export interface CostFigures {
  cost_usd: string;
  cost_nanos: string;
  transactions: number;
  unpriced_transactions: number;
  conflict_transactions: number;
  quantities: Quantities;
}
export interface CostGroup extends CostFigures {
  key: Partial<Record<ReportField, string | null>>;
}

interface Sum {
  key: CostGroup["key"];
  nanos: bigint;
  transactions: number;
  unpriced_transactions: number;
  conflict_transactions: number;
  quantities: Quantities;
}

const emptySum = (key: CostGroup["key"]): Sum => ({
  key,
  nanos: 0n,
  transactions: 0,
  unpriced_transactions: 0,
  conflict_transactions: 0,
  quantities: zeroQuantities(),
});

function add(sum: Sum, part: Contribution) {
  sum.nanos += part.cost_nanos;
  sum.transactions += part.transactions;
  sum.unpriced_transactions += part.unpriced_transactions;
  sum.conflict_transactions += part.conflict_transactions;
  for (const name of ROLLUP_QUANTITIES) sum.quantities[name] += part.quantities[name];
}

const figures = (sum: Sum): CostFigures => ({
  cost_usd: nanosToUsd(sum.nanos),
  cost_nanos: sum.nanos.toString(),
  transactions: sum.transactions,
  unpriced_transactions: sum.unpriced_transactions,
  conflict_transactions: sum.conflict_transactions,
  quantities: sum.quantities,
});

/**
 * Sums contributions into groups, in BigInt nanos: exact at any size. Groups come by day (when grouped by
 * day), then by cost, largest first, then by key.
 */
export class CostAggregate {
  private readonly groups = new Map<string, Sum>();
  private readonly total = emptySum({});

  constructor(
    private readonly groupBy: readonly ReportField[],
    private readonly filters: Partial<Record<ReportField, string>>,
  ) {}

  add(part: Contribution): void {
    for (const [field, wanted] of Object.entries(this.filters)) {
      if (part.values(field as ReportField) !== wanted) return;
    }
    const key = Object.fromEntries(this.groupBy.map((field) => [field, part.values(field)]));
    const id = JSON.stringify(this.groupBy.map((field) => key[field]));
    let sum = this.groups.get(id);
    if (!sum) {
      sum = emptySum(key);
      this.groups.set(id, sum);
    }
    add(sum, part);
    add(this.total, part);
  }

  result(): { groups: CostGroup[]; totals: CostFigures } {
    const byDay = this.groupBy.includes("day");
    const sums = [...this.groups.values()].sort(
      (a, b) =>
        (byDay ? String(a.key.day).localeCompare(String(b.key.day)) : 0) ||
        (a.nanos === b.nanos ? 0 : a.nanos > b.nanos ? -1 : 1) ||
        b.transactions - a.transactions ||
        JSON.stringify(a.key).localeCompare(JSON.stringify(b.key)),
    );
    return { groups: sums.map((sum) => ({ key: sum.key, ...figures(sum) })), totals: figures(this.total) };
  }
}
