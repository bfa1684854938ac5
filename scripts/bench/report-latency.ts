import { Firestore } from "@google-cloud/firestore";
import { firestoreReportSource } from "@usage-ingestion/reports";
import { ROLLUP_SHARDS } from "@usage-ingestion/shared";
import { createApp } from "../../services/gateway/src/app.ts";
import { cachedKeyStore } from "../../services/gateway/src/auth/cached-key-store.ts";
import { firestoreKeyStore } from "../../services/gateway/src/auth/key-store.ts";
import { createApiKey, createOrganization } from "../admin/organizations.ts";
import { startEmulators } from "../lib/emulators.ts";
import { commitWrites, recordWrites, rollupShardWrite, type SeedWrite } from "../lib/seed-usage.ts";

/**
 * Report latency over a month of data: BENCH_REPORT_TRANSACTIONS (1,000,000) transactions over 30 days,
 * seeded directly in the documents the worker writes (not through the pipeline): every roll-up shard with
 * its final sums, and the records of the first and last day, the only records a report reads (at its
 * edges). Writing all records would take the emulator hours and change no report's reads.
 */
const TOTAL = Number(process.env.BENCH_REPORT_TRANSACTIONS ?? 1_000_000);
const CUSTOMERS = Number(process.env.BENCH_REPORT_CUSTOMERS ?? 10);
const MODELS = ["gpt-4o", "gpt-4o-mini", "o3"];
const DAYS = 30;
/** Each seeded transaction costs the same fixed amount: the benchmark is about reads, not prices. */
const COST_NANOS = 2_875_000;
const ORG = "bench-reports";

const dayText = (d: number) => `2026-01-${String(d).padStart(2, "0")}`;
const perCellDay = Math.floor(TOTAL / DAYS / (CUSTOMERS * MODELS.length));

async function seed(db: Firestore) {
  const cells: SeedWrite[] = [];
  for (let d = 1; d <= DAYS; d++) {
    for (let c = 0; c < CUSTOMERS; c++) {
      for (const model of MODELS) {
        for (let shard = 0; shard < ROLLUP_SHARDS; shard++) {
          const count = Math.floor(perCellDay / ROLLUP_SHARDS) + (shard < perCellDay % ROLLUP_SHARDS ? 1 : 0);
          if (count === 0) continue;
          cells.push(
            rollupShardWrite(db, ORG, { model, customer: `customer-${c}`, day: dayText(d), shard }, count, COST_NANOS),
          );
        }
      }
    }
  }
  const records: typeof cells = [];
  for (const d of [1, DAYS]) {
    for (let c = 0; c < CUSTOMERS; c++) {
      for (const model of MODELS) {
        for (let i = 0; i < perCellDay; i++) {
          const at = new Date(Date.parse(`${dayText(d)}T00:00:00Z`) + Math.floor((i / perCellDay) * 86_400_000));
          const seed = { received_at: at.toISOString(), customer: `customer-${c}`, model, cost_nanos: COST_NANOS };
          // The record alone: its cell's sums are already among the roll-ups above.
          records.push(recordWrites(db, ORG, [], seed)[0] as SeedWrite);
        }
      }
    }
  }
  let started = Date.now();
  await commitWrites(db, cells);
  console.log(`  seeded ${cells.length} roll-up shards in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  started = Date.now();
  await commitWrites(db, records);
  console.log(`  seeded ${records.length} records in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return { cells: cells.length, records: records.length };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** Seeds, then times GET /usage/costs over HTTP (median of 3); returns the lines to print. */
export async function reportLatency(projectId: string): Promise<string[]> {
  const db = new Firestore({ projectId });
  const reportsDb = new Firestore({ projectId, useBigInt: true });
  await createOrganization(db, ORG);
  const { key } = await createApiKey({ records: db, keys: db }, ORG, undefined, undefined, "read");
  const seedStart = Date.now();
  const seeded = await seed(db);
  const seedSeconds = (Date.now() - seedStart) / 1000;
  const keys = cachedKeyStore(firestoreKeyStore({ records: db, keys: db }), {
    ttlMs: 60_000,
    maxEntries: 10,
    lookupTimeoutMs: 5_000,
  });
  const app = createApp({
    keys,
    publisher: { publish: async () => [], close: async () => {} },
    logger: { log: () => {} },
    reports: firestoreReportSource(reportsDb),
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const { port } = server.address() as { port: number };
  const time = async (query: string) => {
    const runs: number[] = [];
    let body: { totals?: { transactions: number }; groups?: unknown[] } = {};
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      const response = await fetch(`http://127.0.0.1:${port}/usage/costs?${query}`, { headers: { "x-api-key": key } });
      body = (await response.json()) as typeof body;
      runs.push(performance.now() - started);
    }
    return { ms: median(runs), transactions: body.totals?.transactions ?? 0, groups: body.groups?.length ?? 0 };
  };
  const cases = [
    ["month by customer,model (roll-ups only)", `from=${dayText(1)}&to=2026-01-31&group_by=billable_customer_id,model`],
    [
      "month by day,model, one customer",
      `from=${dayText(1)}&to=2026-01-31&group_by=day,model&billable_customer_id=customer-3`,
    ],
    [
      "12:00 to 12:00 by customer (2 half-day edges)",
      `from=${dayText(1)}T12:00:00Z&to=${dayText(DAYS)}T12:00:00Z&group_by=billable_customer_id`,
    ],
  ] as const;
  const lines = [
    `\nreports: ${seeded.cells.toLocaleString("en-US")} roll-up shards + ${seeded.records.toLocaleString("en-US")} edge-day records for ${TOTAL.toLocaleString("en-US")} transactions (${CUSTOMERS} customers x ${MODELS.length} models x ${DAYS} days), seeded in ${seedSeconds.toFixed(0)} s`,
  ];
  for (const [label, query] of cases) {
    const result = await time(query);
    lines.push(
      `${label.padEnd(48)}${result.ms.toFixed(0).padStart(8)} ms  (${result.groups} groups, ${result.transactions.toLocaleString("en-US")} transactions)`,
    );
  }
  server.close();
  await Promise.allSettled([db.terminate(), reportsDb.terminate()]);
  return lines;
}

if (process.argv[1]?.endsWith("bench/report-latency.ts")) {
  const projectId = "demo-usage-bench-reports";
  const emulators = await startEmulators({ projectId });
  Object.assign(process.env, emulators.env);
  try {
    for (const line of await reportLatency(projectId)) console.log(line);
  } finally {
    await emulators.stop();
  }
}
