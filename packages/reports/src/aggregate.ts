import { NANOS_PER_USD, nanosToUsd, PICOS_PER_USD, picosToUsd } from "@usage-ingestion/shared";
import type { Contribution } from "./contribution.ts";
import { dimensionOf, type ReportField } from "./report-fields.ts";
import { type Quantities, ROLLUP_QUANTITIES } from "./rollups.ts";
import { Sum } from "./sum.ts";
import { columnLength, type SummaryColumns } from "./summary-columns.ts";

export interface CostFigures {
  cost_usd: string;
  cost_nanos: string;
  transactions: number;
  unpriced_transactions: number;
  conflict_transactions: number;
  quantities: Quantities;
  /**
   * Beside `cost_usd`, never in it (decision 0031): the priced records that carry the vendor's own cost,
   * that cost summed (twelve places; and in pico-USD), our cost of exactly those records (nine places;
   * and in nano-USD), and the vendor's less ours (twelve places, signed).
   */
  provider_reported_transactions: number;
  provider_reported_cost_usd: string;
  provider_reported_cost_picos: string;
  cost_usd_where_provider_reported: string;
  cost_nanos_where_provider_reported: string;
  provider_reported_difference_usd: string;
}
export interface CostGroup extends CostFigures {
  key: Partial<Record<ReportField, string | null>>;
}

/** How one field's value is read from what is added: a contribution, or cell `i` of a summary's columns and its day. */
type Reader<T> = (item: T, i: number, day: string) => string | null;

/** The key of the one group that holds a field's values not kept (`only`): no value a caller names. */
export const OTHER_VALUES = "\u0000other";

const contributionReader =
  (field: ReportField): Reader<Contribution> =>
  (part) =>
    part.values(field);

/** A summary cell's field, read as `Contribution.values` reads a roll-up's (contribution.ts `cellValues`). */
function columnReader(field: ReportField): Reader<SummaryColumns> {
  const dimension = dimensionOf(field);
  if (dimension !== null) {
    return (columns, i) => {
      const dimensions = columns.dimensions[columns.dims[i] as number] ?? {};
      return Object.hasOwn(dimensions, dimension) ? (dimensions[dimension] ?? null) : null;
    };
  }
  switch (field) {
    case "day":
      return (_columns, _i, day) => day;
    case "provider":
      return (columns, i) => columns.providers[columns.provider[i] as number] ?? null;
    case "model":
      return (columns, i) => columns.models[columns.model[i] as number] ?? null;
    case "model_tier":
      return (columns, i) => columns.tiers[columns.tier[i] as number] ?? null;
    default:
      return (columns, i) => columns.customer[i] ?? null;
  }
}

/** Pico-USD per nano-USD. */
const PICOS_PER_NANO = PICOS_PER_USD / NANOS_PER_USD;

function figures(sum: Sum, nanos: bigint): CostFigures {
  const reported = sum.reportedFigures();
  return {
    cost_usd: nanosToUsd(nanos),
    cost_nanos: nanos.toString(),
    transactions: sum.transactions,
    unpriced_transactions: sum.unpriced,
    conflict_transactions: sum.conflicts,
    quantities: Object.fromEntries(ROLLUP_QUANTITIES.map((name, i) => [name, sum.quantities[i]])) as Quantities,
    provider_reported_transactions: sum.reported,
    provider_reported_cost_usd: picosToUsd(reported.picos),
    provider_reported_cost_picos: reported.picos.toString(),
    cost_usd_where_provider_reported: nanosToUsd(reported.nanos),
    cost_nanos_where_provider_reported: reported.nanos.toString(),
    provider_reported_difference_usd: picosToUsd(reported.picos - reported.nanos * PICOS_PER_NANO),
  };
}

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
  private readonly byColumns: { group: Reader<SummaryColumns>[]; filters: [Reader<SummaryColumns>, string][] };

  /**
   * `onGroup` is told of each new group before it is held (a ceiling may refuse it by throwing). `only`
   * keeps, for a grouped field, the values that matter to the caller: every other value of that field
   * falls into one group under OTHER_VALUES, so the groups are bounded by the values named.
   */
  constructor(
    private readonly groupBy: readonly ReportField[],
    filters: Partial<Record<ReportField, string>>,
    private readonly onGroup: () => void = () => {},
    only: Partial<Record<ReportField, ReadonlySet<string>>> = {},
  ) {
    const wanted = Object.entries(filters) as Array<[ReportField, string]>;
    const grouped = <T>(field: ReportField, read: Reader<T>): Reader<T> => {
      const kept = only[field];
      if (!kept) return read;
      return (item, i, day) => {
        const value = read(item, i, day);
        return value !== null && kept.has(value) ? value : OTHER_VALUES;
      };
    };
    this.byContribution = {
      group: groupBy.map((field) => grouped(field, contributionReader(field))),
      filters: wanted.map(([field, value]) => [contributionReader(field), value]),
    };
    this.byColumns = {
      group: groupBy.map((field) => grouped(field, columnReader(field))),
      filters: wanted.map(([field, value]) => [columnReader(field), value]),
    };
  }

  /** The group of `item`, or undefined when a filter leaves it out. */
  private groupOf<T>(item: T, i: number, day: string, by: { group: Reader<T>[]; filters: [Reader<T>, string][] }) {
    for (const [read, wanted] of by.filters) if (read(item, i, day) !== wanted) return undefined;
    if (this.groupBy.length === 0) {
      if (!this.single) {
        this.onGroup();
        this.single = new Sum({});
        this.sums.push(this.single);
      }
      return this.single;
    }
    let level = this.root;
    const last = by.group.length - 1;
    for (let f = 0; f < last; f++) {
      const value = (by.group[f] as Reader<T>)(item, i, day);
      let next = level.get(value) as Level | undefined;
      if (!next) {
        next = new Map();
        level.set(value, next);
      }
      level = next;
    }
    const value = (by.group[last] as Reader<T>)(item, i, day);
    let sum = level.get(value) as Sum | undefined;
    if (!sum) {
      this.onGroup();
      sum = new Sum(
        Object.fromEntries(this.groupBy.map((field, f) => [field, (by.group[f] as Reader<T>)(item, i, day)])),
      );
      level.set(value, sum);
      this.sums.push(sum);
    }
    return sum;
  }

  add(part: Contribution): void {
    const sum = this.groupOf(part, 0, "", this.byContribution);
    if (!sum) return;
    sum.addContribution(part);
    this.total.addContribution(part);
  }

  /** A summary part's cells (of `day`, the summary's day), straight from their columns: no object per cell. */
  addSummaryColumns(columns: SummaryColumns, day: string): void {
    const count = columnLength(columns);
    for (let i = 0; i < count; i++) {
      const sum = this.groupOf(columns, i, day, this.byColumns);
      if (!sum) continue;
      sum.addColumns(columns, i);
      this.total.addColumns(columns, i);
    }
  }

  /**
   * The groups from the `offset`th, `limit` of them, in order, with how many there are and the totals of
   * all: figures are built for the answer's page only.
   */
  result(offset = 0, limit = Number.POSITIVE_INFINITY): { groups: CostGroup[]; count: number; totals: CostFigures } {
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
      groups: sorted.slice(offset, offset + limit).map(({ sum, nanos }) => ({ key: sum.key, ...figures(sum, nanos) })),
      count: sorted.length,
      totals: figures(this.total, this.total.nanos()),
    };
  }
}
