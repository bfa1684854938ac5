import { ROLLUP_QUANTITIES, type RollupKey } from "./rollups.ts";

/**
 * One cell of a summary as a row: key fields, then the counters (how the fold handles cells, and how parts
 * written before SummaryColumns hold them). Nanos are decimal text (their sums may pass 2^53); quantities
 * follow ROLLUP_QUANTITIES' order.
 */
export type SummaryCell = [
  provider: RollupKey["provider"],
  model: string,
  model_tier: string | null,
  billable_customer_id: string,
  dimensions: RollupKey["dimensions"],
  transactions: number,
  unpriced_transactions: number,
  conflict_transactions: number,
  cost_nanos: string,
  quantities: number[],
  /** The priced records with the vendor's own cost (decision 0031); absent from rows written before, or with none. */
  reported?: ReportedCell,
];

/** A cell's like-with-like figures: records, the vendor's cost in pico-USD, ours in nano-USD (decimal text). */
export type ReportedCell = [transactions: number, picos: string, nanos: string];

/**
 * A summary part's cells column by column: what `cells` holds from the month-summaries work on (older
 * parts hold a JSON array of SummaryCell rows, still read). Parsing a column of 5,000 numbers makes one
 * array, not 5,000 arrays, objects and quantity arrays: a report summing a month of 10,000-cell days
 * parses about 2.5x faster. Key values repeated from cell to cell (provider, model, tier, dimensions) are
 * stored once and referred to by their position.
 */
export interface SummaryColumns {
  providers: RollupKey["provider"][];
  models: string[];
  tiers: Array<string | null>;
  dimensions: RollupKey["dimensions"][];
  /** Per cell: positions in the lists above, and the customer. */
  provider: number[];
  model: number[];
  tier: number[];
  customer: string[];
  dims: number[];
  transactions: number[];
  unpriced: number[];
  conflicts: number[];
  /** Integer nano-USD: a number where it is a safe integer, its decimal text otherwise. */
  nanos: Array<number | string>;
  /** One column per ROLLUP_QUANTITIES name, in its order. */
  quantities: number[][];
  /**
   * The like-with-like figures (decision 0031), present only in parts where some cell has them: records
   * with the vendor's own cost, that cost in pico-USD, our cost of them in nano-USD (numbers where safe
   * integers, decimal text otherwise). Absent, every cell's are 0.
   */
  reported?: number[];
  reported_picos?: Array<number | string>;
  reported_nanos?: Array<number | string>;
}

/** Decimal text as a number where that is exact, else the text. */
function exactNumber(text: string): number | string {
  const exact = Number(text);
  return Number.isSafeInteger(exact) ? exact : text;
}

/** Positions of distinct values, for one list of them. */
function positions<T>(list: T[], keyOf: (value: T) => string = (value) => String(value)) {
  const seen = new Map<string, number>();
  return (value: T): number => {
    const key = keyOf(value);
    let at = seen.get(key);
    if (at === undefined) {
      at = list.length;
      list.push(value);
      seen.set(key, at);
    }
    return at;
  };
}

/** Cells as columns. */
export function toColumns(cells: readonly SummaryCell[]): SummaryColumns {
  const columns: SummaryColumns = {
    providers: [],
    models: [],
    tiers: [],
    dimensions: [],
    provider: [],
    model: [],
    tier: [],
    customer: [],
    dims: [],
    transactions: [],
    unpriced: [],
    conflicts: [],
    nanos: [],
    quantities: ROLLUP_QUANTITIES.map(() => []),
  };
  const provider = positions(columns.providers);
  const model = positions(columns.models);
  const tier = positions(columns.tiers, (value) => JSON.stringify(value));
  const dims = positions(columns.dimensions, (value) =>
    JSON.stringify(
      Object.keys(value)
        .sort()
        .map((name) => [name, value[name]]),
    ),
  );
  const withReported = cells.some((cell) => cell[10] !== undefined && cell[10][0] !== 0);
  if (withReported) {
    columns.reported = [];
    columns.reported_picos = [];
    columns.reported_nanos = [];
  }
  for (const [p, m, t, customer, d, transactions, unpriced, conflicts, nanos, quantities, reported] of cells) {
    columns.provider.push(provider(p));
    columns.model.push(model(m));
    columns.tier.push(tier(t));
    columns.customer.push(customer);
    columns.dims.push(dims(d));
    columns.transactions.push(transactions);
    columns.unpriced.push(unpriced);
    columns.conflicts.push(conflicts);
    columns.nanos.push(exactNumber(nanos));
    ROLLUP_QUANTITIES.forEach((_name, i) => {
      columns.quantities[i]?.push(quantities[i] ?? 0);
    });
    if (withReported) {
      const [count, picos, ours] = reported ?? [0, "0", "0"];
      columns.reported?.push(count);
      columns.reported_picos?.push(exactNumber(picos));
      columns.reported_nanos?.push(exactNumber(ours));
    }
  }
  return columns;
}

/** A part's `cells` text, in either layout, as columns. */
export function readSummaryColumns(text: string): SummaryColumns {
  const parsed = JSON.parse(text) as SummaryColumns | SummaryCell[];
  return Array.isArray(parsed) ? toColumns(parsed) : parsed;
}

/** The number of cells in columns. */
export const columnLength = (columns: SummaryColumns): number => columns.customer.length;

/** Cell `i`'s like-with-like figures, or undefined when it has none. */
export function reportedAt(columns: SummaryColumns, i: number): ReportedCell | undefined {
  const count = columns.reported?.[i] ?? 0;
  if (count === 0) return undefined;
  return [count, String(columns.reported_picos?.[i] ?? 0), String(columns.reported_nanos?.[i] ?? 0)];
}

/** Cell `i` of columns, as a row. */
export function cellAt(columns: SummaryColumns, i: number): SummaryCell {
  const reported = reportedAt(columns, i);
  return [
    columns.providers[columns.provider[i] as number] as RollupKey["provider"],
    columns.models[columns.model[i] as number] as string,
    columns.tiers[columns.tier[i] as number] ?? null,
    columns.customer[i] as string,
    columns.dimensions[columns.dims[i] as number] ?? {},
    columns.transactions[i] ?? 0,
    columns.unpriced[i] ?? 0,
    columns.conflicts[i] ?? 0,
    String(columns.nanos[i] ?? 0),
    columns.quantities.map((column) => column[i] ?? 0),
    ...(reported ? [reported] : []),
  ] as SummaryCell;
}
