import { writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { Firestore } from "@google-cloud/firestore";
import { firestoreReportSource, type ReportSource } from "@usage-ingestion/reports";
import { daysOfMonth, type SummaryCell } from "@usage-ingestion/shared";
import { foldMonth } from "../../services/cost-worker/src/fold/fold-month.ts";
import { writeSummary } from "../../services/cost-worker/src/fold/summary-writes.ts";
import { createApp } from "../../services/gateway/src/app.ts";
import { cachedKeyStore } from "../../services/gateway/src/auth/cached-key-store.ts";
import { firestoreKeyStore } from "../../services/gateway/src/auth/key-store.ts";
import { createApiKey, createOrganization } from "../admin/organizations.ts";
import { startEmulators } from "../lib/emulators.ts";
import { REPO_ROOT } from "../lib/services.ts";

/**
 * Report latency over a month of a company that bills thousands of customers: BENCH_REPORT_TRANSACTIONS
 * (10,000,000) transactions in January 2026, BENCH_REPORT_CUSTOMERS (5,000) customers on 2 of 20 models
 * each (10,000 cells a day). Seeded as the issue allows: one day's cells, repeated on every day, written
 * by the fold's own writer as day summaries and as hour summaries for the hours of the edges; then the
 * month summary folded from them by the fold itself. A report reads only summaries, so writing every
 * shard or record would take the emulator hours and change no report's reads.
 */
const TOTAL = Number(process.env.BENCH_REPORT_TRANSACTIONS ?? 10_000_000);
const CUSTOMERS = Number(process.env.BENCH_REPORT_CUSTOMERS ?? 5_000);
const RUNS = Number(process.env.BENCH_REPORT_RUNS ?? 10);
const MODELS = Array.from({ length: 20 }, (_, i) => `model-${String(i).padStart(2, "0")}`);
const MONTH = "2026-01";
const DAYS = daysOfMonth(MONTH);
/** What a transaction costs at least; each cell adds its own amount (see `cell`). */
const COST_NANOS = 2_875_000;
const ORG = "bench-reports";

/** Customer c's two models: 10,000 cells a day for 5,000 customers. */
const cellsOf = (c: number) => [MODELS[c % MODELS.length], MODELS[(c + 7) % MODELS.length]] as string[];
const perCellDay = Math.max(3, Math.round(TOTAL / DAYS.length / (CUSTOMERS * 2)));

/**
 * A cell's counters for `transactions` of its transactions: each cell has its own tokens and price per
 * transaction (spread from its customer and model), so sums and nanos differ from cell to cell as they do
 * in real use, not one repeated figure that a summary's JSON would make look smaller than it is.
 */
function cell(customer: number, model: string, transactions: number): SummaryCell {
  const spread = (customer * 7_919 + model.length * 104_729 + Number(model.slice(-2)) * 15_485_863) % 1_000_003;
  const input = 50 + (spread % 4_000);
  const output = 10 + (spread % 997);
  const cached = spread % 3 === 0 ? Math.floor(input / 2) : 0;
  const quantities = [input * transactions, output * transactions, cached * transactions, 0, 0, 0, 0, 0, 0, 0, 0];
  const nanos = BigInt(COST_NANOS + spread * 13) * BigInt(transactions);
  return ["openai", model, null, `customer-${customer}`, {}, transactions, 0, 0, String(nanos), quantities];
}

/** The cells of one day, or of one of its hours: a cell sees transactions in 2 hours of 3, evenly. */
function cells(hour?: number): SummaryCell[] {
  const out: SummaryCell[] = [];
  for (let c = 0; c < CUSTOMERS; c++) {
    for (const [i, model] of cellsOf(c).entries()) {
      if (hour === undefined) {
        out.push(cell(c, model, perCellDay));
        continue;
      }
      // The day's transactions over the 16 hours the cell is active, the remainder in its first ones.
      const active = (h: number) => (c * 2 + i + h) % 3 !== 0;
      if (!active(hour)) continue;
      let rank = 0;
      for (let h = 0; h < hour; h++) if (active(h)) rank++;
      const share = Math.floor(perCellDay / 16) + (rank < perCellDay % 16 ? 1 : 0);
      if (share > 0) out.push(cell(c, model, share));
    }
  }
  return out;
}

async function seed(db: Firestore) {
  const readTime = new Date().toISOString();
  const day = cells();
  for (const each of DAYS) await writeSummary(db, ORG, { kind: "day", day: each }, day, readTime);
  const edgeHours = [
    ...Array.from({ length: 12 }, (_, h) => ({ day: DAYS[0] as string, h: 12 + h })),
    ...Array.from({ length: 12 }, (_, h) => ({ day: DAYS[DAYS.length - 1] as string, h })),
  ];
  let hourCells = 0;
  for (const { day: date, h } of edgeHours) {
    const hour = `${date}T${String(h).padStart(2, "0")}`;
    const these = cells(h);
    hourCells += these.length;
    await writeSummary(db, ORG, { kind: "hour", hour }, these, readTime);
  }
  const started = Date.now();
  const month = await foldMonth(db, ORG, MONTH);
  return { dayCells: day.length, hourCells, monthCells: month.cells, monthFoldMs: Date.now() - started, month };
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)] ?? 0;

/** The source, counting the documents each report reads. */
function counting(source: ReportSource) {
  const count = { documents: 0 };
  const wrapped = Object.fromEntries(
    Object.entries(source).map(([name, read]) => [
      name,
      name === "declaredDimensions"
        ? read
        : async function* (...args: unknown[]) {
            for await (const page of (read as (...a: unknown[]) => AsyncIterable<unknown[]>)(...args)) {
              count.documents += page.length;
              yield page;
            }
          },
    ]),
  ) as unknown as ReportSource;
  return { count, source: wrapped };
}

export interface ReportLatency {
  lines: string[];
  loadAverage: number[];
  seeded: { transactions: number; customers: number; cellsPerDay: number; hourCells: number; monthCells: number };
  /** Per report: wall time, and this process's CPU time (the report's own work, whatever the machine's load). */
  cases: Array<{
    label: string;
    query: string;
    p50Ms: number;
    p95Ms: number;
    cpuP50Ms: number;
    documents: number;
    groups: number;
  }>;
}

/**
 * Seeds, then times GET /usage/costs over HTTP (BENCH_REPORT_RUNS times each), with this process's CPU
 * time (the gateway's app runs in it: routing, Firestore's client, the report); returns figures and lines.
 */
export async function reportLatency(projectId: string): Promise<ReportLatency> {
  const db = new Firestore({ projectId });
  const reportsDb = new Firestore({ projectId, useBigInt: true });
  await createOrganization(db, ORG);
  const { key } = await createApiKey({ records: db, keys: db }, ORG, undefined, undefined, "read");
  const seedStart = Date.now();
  const seeded = await seed(reportsDb);
  const seedSeconds = (Date.now() - seedStart) / 1000;
  const keys = cachedKeyStore(firestoreKeyStore({ records: db, keys: db }), {
    ttlMs: 60_000,
    maxEntries: 10,
    lookupTimeoutMs: 5_000,
  });
  const { count, source } = counting(firestoreReportSource(reportsDb));
  const app = createApp({
    keys,
    publisher: { publish: async () => [], close: async () => {} },
    logger: { log: () => {} },
    reports: source,
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const { port } = server.address() as { port: number };
  const time = async (query: string) => {
    const runs: number[] = [];
    const cpu: number[] = [];
    let body: { totals?: { transactions: number }; groups?: unknown[]; error?: string } = {};
    let documents = 0;
    for (let i = 0; i < RUNS; i++) {
      count.documents = 0;
      const started = performance.now();
      const cpuBefore = process.cpuUsage();
      const response = await fetch(`http://127.0.0.1:${port}/usage/costs?${query}`, { headers: { "x-api-key": key } });
      body = (await response.json()) as typeof body;
      runs.push(performance.now() - started);
      const used = process.cpuUsage(cpuBefore);
      cpu.push((used.user + used.system) / 1000);
      documents = count.documents;
      if (response.status !== 200) throw new Error(`${query}: ${response.status} ${JSON.stringify(body)}`);
    }
    return { runs, cpu, documents, transactions: body.totals?.transactions ?? 0, groups: body.groups?.length ?? 0 };
  };
  const last = DAYS[DAYS.length - 1] as string;
  const cases = [
    ["month by customer,model, whole days", `from=${DAYS[0]}&to=2026-02-01&group_by=billable_customer_id,model`],
    [
      "month by day,model, one customer",
      `from=${DAYS[0]}&to=2026-02-01&group_by=day,model&billable_customer_id=customer-3`,
    ],
    [
      "12:00 to 12:00 by customer,model (2 edges)",
      `from=${DAYS[0]}T12:00:00Z&to=${last}T12:00:00Z&group_by=billable_customer_id,model`,
    ],
  ] as const;
  const result: ReportLatency = {
    lines: [
      `\nreports: ${TOTAL.toLocaleString("en-US")} transactions, ${CUSTOMERS.toLocaleString("en-US")} customers x 2 of ${MODELS.length} models (${seeded.dayCells.toLocaleString("en-US")} cells a day, ${seeded.hourCells.toLocaleString("en-US")} in the 24 edge hours) over ${DAYS.length} days; seeded in ${seedSeconds.toFixed(0)} s, the month folded in ${(seeded.monthFoldMs / 1000).toFixed(1)} s (${seeded.monthCells.toLocaleString("en-US")} cells, ${seeded.month.parts} part(s)); ${RUNS} runs a report; load average ${loadavg()[0]?.toFixed(1)}`,
    ],
    loadAverage: loadavg(),
    seeded: {
      transactions: perCellDay * seeded.dayCells * DAYS.length,
      customers: CUSTOMERS,
      cellsPerDay: seeded.dayCells,
      hourCells: seeded.hourCells,
      monthCells: seeded.monthCells,
    },
    cases: [],
  };
  for (const [label, query] of cases) {
    const { runs, cpu, documents, transactions, groups } = await time(query);
    const p50Ms = percentile(runs, 50);
    const p95Ms = percentile(runs, 95);
    const cpuP50Ms = percentile(cpu, 50);
    result.cases.push({ label, query, p50Ms, p95Ms, cpuP50Ms, documents, groups });
    result.lines.push(
      `${label.padEnd(44)} p50 ${p50Ms.toFixed(0).padStart(6)} ms  p95 ${p95Ms.toFixed(0).padStart(6)} ms  CPU ${cpuP50Ms.toFixed(0).padStart(5)} ms  ${String(documents).padStart(4)} documents  (${groups} groups, ${transactions.toLocaleString("en-US")} transactions)`,
    );
  }
  server.close();
  await Promise.allSettled([db.terminate(), reportsDb.terminate()]);
  return result;
}

if (process.argv[1]?.endsWith("bench/report-latency.ts")) {
  const projectId = "demo-usage-bench-reports";
  const emulators = await startEmulators({ projectId });
  Object.assign(process.env, emulators.env);
  try {
    const result = await reportLatency(projectId);
    for (const line of result.lines) console.log(line);
    const output = process.env.BENCH_OUTPUT ?? join(REPO_ROOT, "bench-reports.json");
    writeFileSync(output, `${JSON.stringify(result, null, 2)}\n`);
    console.log(`\nwritten to ${output}`);
  } finally {
    await emulators.stop();
  }
}
