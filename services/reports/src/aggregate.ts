import { nanosToUsd, type Quantities, ROLLUP_QUANTITIES, type SummaryCell } from "@usage-ingestion/shared";
import type { Contribution } from "./contribution.ts";
import { dimensionOf, type ReportField } from "./report-fields.ts";
import { Sum } from "./sum.ts";

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

/** How one field's value is read from what is added: a contribution, or a summary's cell and its day. */
type Reader<T> = (item: T, day: string) => string | null;

const contributionReader =
  (field: ReportField): Reader<Contribution> =>
  (part) =>
    part.values(field);

/** A summary cell's field, read as `Contribution.values` reads a roll-up's (contribution.ts `cellValues`). */
function cellReader(field: ReportField): Reader<SummaryCell> {
  const dimension = dimensionOf(field);
  if (dimension !== null) {
    return (cell) => {
      const dimensions = cell[4] ?? {};
      return Object.hasOwn(dimensions, dimension) ? (dimensions[dimension] ?? null) : null;
    };
  }
  switch (field) {
    case "day":
      return (_cell, day) => day;
    case "provider":
      return (cell) => cell[0] ?? null;
    case "model":
      return (cell) => cell[1] ?? null;
    case "model_tier":
      return (cell) => cell[2] ?? null;
    default:
      return (cell) => cell[3] ?? null;
  }
}

const figures = (sum: Sum, nanos: bigint): CostFigures => ({
  cost_usd: nanosToUsd(nanos),
  cost_nanos: nanos.toString(),
  transactions: sum.transactions,
  unpriced_transactions: sum.unpriced,
  conflict_transactions: sum.conflicts,
  quantities: Object.fromEntries(ROLLUP_QUANTITIES.map((name, i) => [name, sum.quantities[i]])) as Quantities,
});

/** The groups, one level of maps per grouped field: finding a cell's group allocates nothing. */
type Level = Map<string | null, Level | Sum>;

/**
 * Sums contributions and summary cells into groups, exact at any size (sum.ts). Groups come by day (when
 * grouped by day), then by cost, largest first, then by key.
 */
export class CostAggregate {
  private readonly root: Level = new Map();
  /** The one group of a report grouped by nothing, once something is added. */
  private single: Sum | undefined;
  private readonly total = new Sum({});
  private readonly sums: Sum[] = [];
  private readonly byContribution: { group: Reader<Contribution>[]; filters: [Reader<Contribution>, string][] };
  private readonly byCell: { group: Reader<SummaryCell>[]; filters: [Reader<SummaryCell>, string][] };

  constructor(
    private readonly groupBy: readonly ReportField[],
    filters: Partial<Record<ReportField, string>>,
  ) {
    const wanted = Object.entries(filters) as Array<[ReportField, string]>;
    this.byContribution = {
      group: groupBy.map(contributionReader),
      filters: wanted.map(([field, value]) => [contributionReader(field), value]),
    };
    this.byCell = {
      group: groupBy.map(cellReader),
      filters: wanted.map(([field, value]) => [cellReader(field), value]),
    };
  }

  /** The group of `item`, or undefined when a filter leaves it out. */
  private groupOf<T>(item: T, day: string, by: { group: Reader<T>[]; filters: [Reader<T>, string][] }) {
    for (const [read, wanted] of by.filters) if (read(item, day) !== wanted) return undefined;
    if (this.groupBy.length === 0) {
      if (!this.single) {
        this.single = new Sum({});
        this.sums.push(this.single);
      }
      return this.single;
    }
    let level = this.root;
    const last = by.group.length - 1;
    for (let i = 0; i < last; i++) {
      const value = (by.group[i] as Reader<T>)(item, day);
      let next = level.get(value) as Level | undefined;
      if (!next) {
        next = new Map();
        level.set(value, next);
      }
      level = next;
    }
    const value = (by.group[last] as Reader<T>)(item, day);
    let sum = level.get(value) as Sum | undefined;
    if (!sum) {
      sum = new Sum(Object.fromEntries(this.groupBy.map((field, i) => [field, (by.group[i] as Reader<T>)(item, day)])));
      level.set(value, sum);
      this.sums.push(sum);
    }
    return sum;
  }

  add(part: Contribution): void {
    const sum = this.groupOf(part, "", this.byContribution);
    if (!sum) return;
    sum.addContribution(part);
    this.total.addContribution(part);
  }

  /** A summary's cells (of `day`, the summary's day), straight from their JSON: no object per cell. */
  addSummaryCells(cells: readonly SummaryCell[], day: string): void {
    for (const cell of cells) {
      const sum = this.groupOf(cell, day, this.byCell);
      if (!sum) continue;
      sum.addCell(cell);
      this.total.addCell(cell);
    }
  }

  result(): { groups: CostGroup[]; totals: CostFigures } {
    const byDay = this.groupBy.includes("day");
    const sorted = this.sums.map((sum) => ({ sum, nanos: sum.nanos(), text: JSON.stringify(sum.key) }));
    sorted.sort(
      (a, b) =>
        (byDay ? String(a.sum.key.day).localeCompare(String(b.sum.key.day)) : 0) ||
        (a.nanos === b.nanos ? 0 : a.nanos > b.nanos ? -1 : 1) ||
        b.sum.transactions - a.sum.transactions ||
        a.text.localeCompare(b.text),
    );
    return {
      groups: sorted.map(({ sum, nanos }) => ({ key: sum.key, ...figures(sum, nanos) })),
      totals: figures(this.total, this.total.nanos()),
    };
  }
}
