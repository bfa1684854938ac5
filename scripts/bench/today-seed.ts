import { randomUUID } from "node:crypto";
import type { Firestore } from "@google-cloud/firestore";
import { DEFAULT_DATABASE } from "@usage-ingestion/organizations";
import { firestoreRecordStore } from "@usage-ingestion/records";
import { foldOpenHour, quantitiesOf, writeSummary } from "@usage-ingestion/reports";
import { type CostRecord, nanosToUsd, type UsageEntry } from "@usage-ingestion/shared";
import { firestoreCommits, firestoreCommitsOptions } from "@usage-ingestion/shared/server";
import { CUSTOMERS, cellsOf, hourCells, perTransaction } from "./report-cells.ts";

/**
 * Today so far: a day of BENCH_TODAY_TRANSACTIONS (330,000) transactions over the month's 10,000 cells, up
 * to BENCH_TODAY_NOW (23:30 UTC) of a fixed day after the month (the report's `to` is that "now"). Seeded
 * as the issue allows: the ended hours as hour summaries through the fold's own writer, and the open
 * hour's records, at the day's rate (6,875 for half an hour), through the worker's own record writer, one
 * commit each as the worker stores them (with their roll-up increments), each as it was received (on time,
 * no change mark); then the fold step's run at that "now" folds the open hour up to its watermark (three
 * minutes back), as the fold every minute has it.
 */
export const TODAY = "2026-02-01";
const TODAY_TRANSACTIONS = Number(process.env.BENCH_TODAY_TRANSACTIONS ?? 330_000);
const [NOW_HOUR, NOW_MINUTE] = (process.env.BENCH_TODAY_NOW ?? "23:30").split(":").map(Number) as [number, number];
export const TODAY_NOW = `${TODAY}T${String(NOW_HOUR).padStart(2, "0")}:${String(NOW_MINUTE).padStart(2, "0")}:00Z`;
/** Records stored at once, as a worker's instances would. */
const STORES_AT_ONCE = 32;

const CELLS = CUSTOMERS * 2;
/** The day's transactions of cell i of customer c (10,000 cells: 33 each). */
const perCellDay = (c: number, i: number) =>
  Math.floor(TODAY_TRANSACTIONS / CELLS) + (c * 2 + i < TODAY_TRANSACTIONS % CELLS ? 1 : 0);

/** One priced record of a cell, received at `receivedAt`, as the worker would build it. */
function record(organizationId: string, customer: number, model: string, receivedAt: string): CostRecord {
  const one = perTransaction(customer, model);
  const usage: UsageEntry[] = [
    {
      type: "tokens",
      metrics: {
        input_tokens: one.input,
        output_tokens: one.output,
        cached_tokens: one.cached,
        total_tokens: one.input + one.output,
      },
    },
  ];
  return {
    message_id: randomUUID(),
    request_id: randomUUID(),
    transaction_index: 0,
    organization_id: organizationId,
    received_at: receivedAt,
    processed_at: receivedAt,
    provider: "openai",
    model,
    model_tier: null,
    context: { billable_customer_id: `customer-${customer}` },
    usage,
    provider_usage_raw: null,
    transaction_id: null,
    duplicate_of: null,
    status: "priced",
    unpriced_reason: null,
    cost_usd: nanosToUsd(BigInt(one.nanos)),
    cost_nanos: one.nanos,
    line_items: [],
    pricing: { source: null, version: null, model: null },
    currency: "USD",
    queue_schema_version: 1,
    dimensions: {},
  };
}

/** Seeds today so far; returns what it wrote, and the transactions a report of the day up to now counts. */
export async function seedToday(db: Firestore, organizationId: string, projectId: string) {
  const readTime = new Date().toISOString();
  let transactions = 0;
  let summaryCells = 0;
  for (let h = 0; h < NOW_HOUR; h++) {
    const cells = hourCells(h, perCellDay);
    summaryCells += cells.length;
    for (const each of cells) transactions += each[5];
    await writeSummary(
      db,
      organizationId,
      { kind: "hour", hour: `${TODAY}T${String(h).padStart(2, "0")}` },
      cells,
      readTime,
    );
  }
  // The open hour: the day's rate over the minutes so far, each record in a cell of its own.
  const records = Math.round((TODAY_TRANSACTIONS / 24) * (NOW_MINUTE / 60));
  const hourStart = Date.parse(`${TODAY}T${String(NOW_HOUR).padStart(2, "0")}:00:00Z`);
  const commits = firestoreCommits(
    firestoreCommitsOptions({
      emulatorHost: process.env.FIRESTORE_EMULATOR_HOST,
      projectId,
      databaseId: DEFAULT_DATABASE,
      timeoutMs: 30_000,
    }),
  );
  // Each record stored as it was received: on time, so it leaves no change mark.
  const store = firestoreRecordStore(db, commits, 30_000, (stored) => new Date(stored.received_at));
  const started = Date.now();
  let next = 0;
  const storeNext = async () => {
    for (let j = next++; j < records; j = next++) {
      const k = (j * 7_919) % CELLS;
      const customer = Math.floor(k / 2);
      const receivedAt = new Date(hourStart + Math.floor((j * NOW_MINUTE * 60_000) / records)).toISOString();
      const stored = record(organizationId, customer, cellsOf(customer)[k % 2] as string, receivedAt);
      await store.store({
        record: stored,
        quantities: quantitiesOf(stored.usage as UsageEntry[]),
        contentHash: () => "",
      });
    }
  };
  await Promise.all(Array.from({ length: STORES_AT_ONCE }, storeNext));
  await commits.close();
  const foldStarted = Date.now();
  const openHour = await foldOpenHour(db, organizationId, Date.parse(TODAY_NOW));
  if (!openHour) throw new Error(`the open hour of ${TODAY_NOW} was not folded`);
  return {
    openHour: { ...openHour, ms: Date.now() - foldStarted },
    hours: NOW_HOUR,
    summaryCells,
    records,
    recordsSeconds: (Date.now() - started) / 1000,
    transactions: transactions + records,
  };
}
