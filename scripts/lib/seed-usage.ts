import { randomUUID } from "node:crypto";
import type { DocumentReference, Firestore } from "@google-cloud/firestore";
import {
  costRollupPath,
  declaredDimensions,
  mergeData,
  quantitiesOf,
  ROLLUP_QUANTITIES,
  recordRollupWrites,
} from "@usage-ingestion/reports";
import {
  type CostRecord,
  DOCUMENT_PATHS,
  type Provider,
  type RecordStatus,
  type UsageEntry,
} from "@usage-ingestion/shared";

/** One record to seed; whatever is left out gets a plain default. */
export interface SeedRecord {
  received_at: string;
  /** When the worker stored it (a late record marks its day); absent, as it was received. */
  stored_at?: string;
  status?: RecordStatus;
  provider?: Provider;
  model?: string;
  model_tier?: string | null;
  customer?: string;
  context?: Record<string, unknown>;
  cost_nanos?: number;
  unpriced_reason?: string;
  usage?: UsageEntry[];
}

export interface SeedWrite {
  ref: DocumentReference;
  data: Record<string, unknown>;
  merge: boolean;
}

/**
 * A record and its roll-up increments, built by the worker's own roll-up writer: the reports' tests and
 * the benchmark read exactly what the worker would have written.
 */
export function recordWrites(db: Firestore, organizationId: string, declared: readonly string[], seed: SeedRecord) {
  const status = seed.status ?? "priced";
  const messageId = randomUUID();
  const context = { billable_customer_id: seed.customer ?? "cust-1", ...seed.context };
  const usage = seed.usage ?? [
    { type: "tokens", metrics: { input_tokens: 100, output_tokens: 20, total_tokens: 120 } },
  ];
  const dimensions = declaredDimensions(context, declared);
  const record: CostRecord = {
    message_id: messageId,
    request_id: randomUUID(),
    transaction_index: 0,
    organization_id: organizationId,
    received_at: seed.received_at,
    processed_at: seed.stored_at ?? seed.received_at,
    provider: seed.provider ?? "openai",
    model: seed.model ?? "gpt-4o",
    model_tier: seed.model_tier ?? null,
    context,
    usage,
    provider_usage_raw: null,
    transaction_id: null,
    duplicate_of: status === "duplicate" || status === "conflict" ? "an-earlier-message" : null,
    status,
    unpriced_reason: status === "unpriced" ? (seed.unpriced_reason ?? "unknown_model") : null,
    cost_usd: null,
    cost_nanos: status === "priced" ? (seed.cost_nanos ?? 1_000) : null,
    line_items: [],
    pricing: { source: null, version: null, model: null },
    currency: "USD",
    queue_schema_version: 1,
    dimensions,
  };
  const recordWrite: SeedWrite = {
    ref: db.doc(DOCUMENT_PATHS.transaction(organizationId, messageId)),
    data: { ...record },
    merge: false,
  };
  const rollups = recordRollupWrites(db, record, quantitiesOf(usage), new Date(record.processed_at)).map((write) => ({
    ref: write.ref,
    data: mergeData(write),
    merge: true,
  }));
  return [recordWrite, ...rollups];
}

/** Seeds records with their roll-ups, a few hundred writes per batch. */
export async function seedUsage(
  db: Firestore,
  organizationId: string,
  declared: readonly string[],
  seeds: SeedRecord[],
) {
  let batch = db.batch();
  let size = 0;
  for (const seed of seeds) {
    for (const write of recordWrites(db, organizationId, declared, seed)) {
      batch.set(write.ref, write.data, { merge: write.merge });
      size++;
    }
    if (size >= 400) {
      await batch.commit();
      batch = db.batch();
      size = 0;
    }
  }
  if (size > 0) await batch.commit();
}

/**
 * One roll-up shard of a priced cell as the worker's roll-up writes leave it, written whole: `transactions`
 * transactions of 100 input and 20 output tokens each, `costNanos` apiece. For seeding volume fast (the
 * benchmark, the drills), where writing each record through the worker's writer would take too long.
 */
export function rollupShardWrite(
  db: Firestore,
  organizationId: string,
  cell: { model: string; customer: string; day: string; shard: number },
  transactions: number,
  costNanos: number,
): SeedWrite {
  const key = {
    provider: "openai" as const,
    model: cell.model,
    model_tier: null,
    billable_customer_id: cell.customer,
    dimensions: {},
  };
  const quantities = Object.fromEntries(ROLLUP_QUANTITIES.map((name) => [name, 0]));
  Object.assign(quantities, { input_tokens: 100 * transactions, output_tokens: 20 * transactions });
  return {
    ref: db.doc(costRollupPath(organizationId, { ...key, day: cell.day }, cell.shard)),
    merge: false,
    data: {
      ...key,
      day: cell.day,
      shard: cell.shard,
      transactions,
      unpriced_transactions: 0,
      conflict_transactions: 0,
      cost_nanos: costNanos * transactions,
      quantities,
    },
  };
}

/**
 * Commits every write with a BulkWriter, retried as Firestore asks. Unthrottled: these seed the emulator,
 * and the 500/50/5 ramp-up meant for a live database would hold 60,000 writes to two minutes.
 */
export async function commitWrites(db: Firestore, writes: readonly SeedWrite[]) {
  const writer = db.bulkWriter({ throttling: false });
  for (const write of writes) void writer.set(write.ref, write.data, { merge: write.merge });
  await writer.close();
}
