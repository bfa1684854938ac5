import { writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { Firestore } from "@google-cloud/firestore";
import { createApp } from "@usage-ingestion/gateway";
import { cachedKeyStore, createApiKey, createOrganization, firestoreKeyStore } from "@usage-ingestion/organizations";
import { firestoreReportSource } from "@usage-ingestion/reports";
import { startEmulators } from "../lib/emulators.ts";
import { REPO_ROOT } from "../lib/services.ts";
import { DAYS, MONTH_TRANSACTIONS, seedMonth } from "./month-seed.ts";
import { CUSTOMERS, MODELS } from "./report-cells.ts";
import { type ReportMemory, reportMemory } from "./report-memory.ts";
import { caseLine, counting, type ReportCase, timeReport } from "./report-timing.ts";
import { seedToday, TODAY, TODAY_NOW } from "./today-seed.ts";

/**
 * The reports at volume (issue 26): a month of a company that bills thousands of customers (month-seed.ts),
 * today so far (today-seed.ts), both timed over HTTP on the app in this process; then the built gateway's
 * memory under six worst-case reports at once (report-memory.ts).
 */
const RUNS = Number(process.env.BENCH_REPORT_RUNS ?? 10);
/** BENCH_REPORTS=today: today so far alone (no month, no memory figures), a few minutes less. */
const TODAY_ONLY = process.env.BENCH_REPORTS === "today";
const ORG = "bench-reports";

export interface ReportLatency {
  lines: string[];
  loadAverage: number[];
  seeded: {
    transactions: number;
    customers: number;
    cellsPerDay: number;
    hourCells: number;
    monthCells: number;
    today: {
      day: string;
      now: string;
      hourSummaries: number;
      summaryCells: number;
      records: number;
      /** The open hour's summary: its watermark, the records it folded, its cells, the fold's time. */
      openHour: { until: string; read: number; cells: number; ms: number };
    };
  };
  /** Per report: wall time, and this process's CPU time (the report's own work, whatever the machine's load). */
  cases: ReportCase[];
  /** The built gateway under six reports at once: the worst case first, then the month by customer and model. */
  memory: Array<ReportMemory & { label: string; loadAverage: number[] }>;
}

const n = (value: number) => value.toLocaleString("en-US");

/**
 * Seeds, then times GET /usage/costs over HTTP (BENCH_REPORT_RUNS times each), with this process's CPU
 * time (the gateway's app runs in it: routing, Firestore's client, the report); then the gateway's memory.
 * The emulators' addresses come from the environment.
 */
export async function reportLatency(projectId: string): Promise<ReportLatency> {
  const db = new Firestore({ projectId });
  const reportsDb = new Firestore({ projectId, useBigInt: true });
  await createOrganization(db, ORG);
  // Two read keys: at most 4 reports of one key run at once, and the memory figure sends six.
  const keyPair = [];
  for (let i = 0; i < 2; i++)
    keyPair.push((await createApiKey({ records: db, keys: db }, ORG, undefined, undefined, "read")).key);
  const key = keyPair[0] as string;
  const seedStart = Date.now();
  const month = TODAY_ONLY ? undefined : await seedMonth(reportsDb, ORG);
  const monthSeconds = (Date.now() - seedStart) / 1000;
  const today = await seedToday(reportsDb, ORG, projectId);
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
  const target = { baseUrl: `http://127.0.0.1:${port}`, key, count, runs: RUNS };
  const last = DAYS[DAYS.length - 1] as string;
  const byCell = "group_by=billable_customer_id,model";
  const allCases = [
    ["month by customer,model, whole days", `from=${DAYS[0]}&to=2026-02-01&${byCell}`],
    [
      "month by day,model, one customer",
      `from=${DAYS[0]}&to=2026-02-01&group_by=day,model&billable_customer_id=customer-3`,
    ],
    ["12:00 to 12:00 by customer,model (2 edges)", `from=${DAYS[0]}T12:00:00Z&to=${last}T12:00:00Z&${byCell}`],
    ["today so far by customer,model", `from=${TODAY}&to=${TODAY_NOW}&${byCell}`],
  ] as const;
  const cases = TODAY_ONLY ? allCases.slice(-1) : allCases;
  const { openHour } = today;
  const result: Omit<ReportLatency, "memory"> = {
    lines: [
      month &&
        `\nreports: ${n(MONTH_TRANSACTIONS)} transactions, ${n(CUSTOMERS)} customers x 2 of ${MODELS.length} models (${n(month.dayCells)} cells a day, ${n(month.hourCells)} in the 24 edge hours) over ${DAYS.length} days; seeded in ${monthSeconds.toFixed(0)} s, the month folded in ${(month.monthFoldMs / 1000).toFixed(1)} s (${n(month.monthCells)} cells, ${month.monthParts} part(s)); ${RUNS} runs a report; load average ${loadavg()[0]?.toFixed(1)}`,
      `today so far (${TODAY} up to ${TODAY_NOW.slice(11, 16)}): ${n(today.transactions)} transactions, ${today.hours} hour summaries (${n(today.summaryCells)} cells) and the open hour's ${n(today.records)} records, stored by the worker's writer in ${today.recordsSeconds.toFixed(0)} s; the open hour folded up to ${openHour.until.slice(11, 16)} (${n(openHour.read)} records, ${n(openHour.cells)} cells) in ${(openHour.ms / 1000).toFixed(1)} s`,
    ].filter((line): line is string => line !== undefined),
    loadAverage: loadavg(),
    seeded: {
      transactions: month?.transactions ?? 0,
      customers: CUSTOMERS,
      cellsPerDay: month?.dayCells ?? 0,
      hourCells: month?.hourCells ?? 0,
      monthCells: month?.monthCells ?? 0,
      today: {
        day: TODAY,
        now: TODAY_NOW,
        hourSummaries: today.hours,
        summaryCells: today.summaryCells,
        records: today.records,
        openHour: { until: openHour.until, read: openHour.read, cells: openHour.cells, ms: openHour.ms },
      },
    },
    cases: [],
  };
  for (const [label, query] of cases) {
    const timed = await timeReport(target, label, query);
    result.cases.push(timed);
    result.lines.push(caseLine(timed));
  }
  const todayCase = result.cases[result.cases.length - 1];
  if (todayCase && todayCase.transactions !== today.transactions)
    throw new Error(`today so far counted ${todayCase.transactions} transactions of the ${today.transactions} seeded`);
  server.close();
  await Promise.allSettled([db.terminate(), reportsDb.terminate()]);

  // The worst case the data allows: every day seeded, grouped by every field (a group per cell and day);
  // then the month by customer and model, every group in one page, for a figure beside it that fits.
  const memory: ReportLatency["memory"] = [];
  if (TODAY_ONLY) return { ...result, memory };
  const memoryCases = [
    [
      "worst case",
      `from=${DAYS[0]}&to=${TODAY_NOW}&group_by=day,billable_customer_id,model,provider,model_tier&limit=10000`,
    ],
    ["month by customer,model", `from=${DAYS[0]}&to=2026-02-01&${byCell}&limit=10000`],
  ] as const;
  for (const [label, query] of memoryCases) {
    const loadAverage = loadavg();
    const figure = await reportMemory(process.env as Record<string, string>, keyPair, query);
    memory.push({ label, ...figure, loadAverage });
    result.lines.push(memoryLine(label, figure, loadAverage));
  }
  return { ...result, memory };
}

function memoryLine(label: string, memory: ReportMemory, loadAverage: number[]) {
  const peak = `peak RSS ${memory.peakRssMb?.toFixed(1) ?? "?"} MB (${memory.startRssMb?.toFixed(1) ?? "?"} MB after start-up)`;
  const times = memory.answers.map((answer) => `${answer.status} in ${answer.ms} ms`).join(", ");
  return `${memory.answers.length} reports at once on the built gateway, ${label} (${memory.query}): ${memory.ok} answered 200, ${memory.tooLarge} 422 report_too_large, ${memory.other} otherwise (0: no answer); ${peak}${memory.survived ? "" : "; THE GATEWAY DIED"}; ${times}; load average ${loadAverage[0]?.toFixed(1)}`;
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
