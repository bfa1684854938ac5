import { createHash, randomUUID } from "node:crypto";
import { FieldValue, type Firestore } from "@google-cloud/firestore";
import {
  type CostRecord,
  cellText,
  DOCUMENT_PATHS,
  dayOf,
  declaredDimensions,
  isBillable,
  type Provider,
  quantitiesOf,
  type RecordStatus,
  ROLLUP_QUANTITIES,
  shardOf,
  type UsageEntry,
} from "@usage-ingestion/shared";

/** One record to seed; whatever is left out gets a plain default. */
export interface SeedRecord {
  received_at: string;
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

const hashOf = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 16);

/** `{day}_{cell hash}_{shard}`: the document id of one shard of one roll-up cell. */
export const rollupDocumentId = (day: string, key: Parameters<typeof cellText>[0], shard: number) =>
  `${day}_${hashOf(cellText(key))}_${shard}`;

/**
 * Writes records and their roll-up cells in one batch each, as the worker does when it stores a record
 * (shared model: cellText, shardOf, quantitiesOf): the reports' tests and the benchmark read what it writes.
 */
export function recordWrites(organizationId: string, declared: readonly string[], seed: SeedRecord) {
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
    processed_at: seed.received_at,
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
  const writes: Array<{ path: string; data: Record<string, unknown>; merge: boolean }> = [
    { path: DOCUMENT_PATHS.transaction(organizationId, messageId), data: { ...record }, merge: false },
  ];
  if (status === "duplicate") return writes;
  const day = dayOf(seed.received_at);
  const shard = shardOf(messageId);
  const key = {
    provider: record.provider as Provider,
    model: record.model,
    model_tier: record.model_tier,
    billable_customer_id: context.billable_customer_id,
    dimensions,
  };
  const billed = isBillable(status);
  const quantities = billed ? quantitiesOf(usage) : null;
  writes.push({
    path: `${DOCUMENT_PATHS.costRollups(organizationId)}/${rollupDocumentId(day, key, shard)}`,
    merge: true,
    data: {
      ...key,
      day,
      shard,
      transactions: FieldValue.increment(billed ? 1 : 0),
      unpriced_transactions: FieldValue.increment(status === "unpriced" ? 1 : 0),
      conflict_transactions: FieldValue.increment(status === "conflict" ? 1 : 0),
      cost_nanos: FieldValue.increment(record.cost_nanos ?? 0),
      quantities: Object.fromEntries(
        ROLLUP_QUANTITIES.map((name) => [name, FieldValue.increment(quantities?.[name] ?? 0)]),
      ),
    },
  });
  if (status === "unpriced") {
    const reason = record.unpriced_reason as string;
    const reasonKey = { provider: key.provider, model: key.model, model_tier: key.model_tier, reason };
    writes.push({
      path: `${DOCUMENT_PATHS.unpricedRollups(organizationId)}/${day}_${hashOf(JSON.stringify(reasonKey))}_${shard}`,
      merge: true,
      data: { ...reasonKey, day, shard, transactions: FieldValue.increment(1) },
    });
  }
  return writes;
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
    for (const write of recordWrites(organizationId, declared, seed)) {
      batch.set(db.doc(write.path), write.data, { merge: write.merge });
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
