import type { SummaryCell } from "@usage-ingestion/reports";

/**
 * The cells of the reports' benchmark: BENCH_REPORT_CUSTOMERS (5,000) customers on 2 of 20 models each,
 * 10,000 cells, each with its own tokens and price per transaction (spread from its customer and model),
 * so sums and nanos differ from cell to cell as they do in real use, not one repeated figure that a
 * summary's JSON would make look smaller than it is.
 */
export const CUSTOMERS = Number(process.env.BENCH_REPORT_CUSTOMERS ?? 5_000);
export const MODELS = Array.from({ length: 20 }, (_, i) => `model-${String(i).padStart(2, "0")}`);
/** What a transaction costs at least; each cell adds its own amount. */
const COST_NANOS = 2_875_000;

/** Customer c's two models: 10,000 cells for 5,000 customers. */
export const cellsOf = (c: number) => [MODELS[c % MODELS.length], MODELS[(c + 7) % MODELS.length]] as string[];

/** One transaction of a cell: its tokens and its price in nano-USD. */
export function perTransaction(customer: number, model: string) {
  const spread = (customer * 7_919 + model.length * 104_729 + Number(model.slice(-2)) * 15_485_863) % 1_000_003;
  const input = 50 + (spread % 4_000);
  return {
    input,
    output: 10 + (spread % 997),
    cached: spread % 3 === 0 ? Math.floor(input / 2) : 0,
    nanos: COST_NANOS + spread * 13,
  };
}

/** A cell's counters for `transactions` of its transactions, as a summary holds them. */
export function cell(customer: number, model: string, transactions: number): SummaryCell {
  const one = perTransaction(customer, model);
  const [input, output, cached] = [one.input, one.output, one.cached].map((each) => each * transactions);
  const quantities = [input, output, cached, 0, 0, 0, 0, 0, 0, 0, 0] as number[];
  const nanos = BigInt(one.nanos) * BigInt(transactions);
  return ["openai", model, null, `customer-${customer}`, {}, transactions, 0, 0, String(nanos), quantities];
}

/**
 * The cells of one hour of a day in which each cell has `perCellDay` transactions: a cell sees
 * transactions in 2 hours of 3 (16 of 24), evenly, the remainder in its first active hours.
 */
export function hourCells(hour: number, perCellDay: (customer: number, i: number) => number): SummaryCell[] {
  const out: SummaryCell[] = [];
  for (let c = 0; c < CUSTOMERS; c++) {
    for (const [i, model] of cellsOf(c).entries()) {
      const active = (h: number) => (c * 2 + i + h) % 3 !== 0;
      if (!active(hour)) continue;
      let rank = 0;
      for (let h = 0; h < hour; h++) if (active(h)) rank++;
      const total = perCellDay(c, i);
      const share = Math.floor(total / 16) + (rank < total % 16 ? 1 : 0);
      if (share > 0) out.push(cell(c, model, share));
    }
  }
  return out;
}
