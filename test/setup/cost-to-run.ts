import type { Firestore } from "@google-cloud/firestore";
import { declaredDimensions, mergeData, quantitiesOf, recordRollupWrites } from "@usage-ingestion/reports";
import { type CostRecord, DOCUMENT_PATHS, type RecordStatus, type UsageEntry } from "@usage-ingestion/shared";
import { messageIdInShard } from "./rollups.ts";

/**
 * What docs/cost-to-run.md and its test share: fixtures whose documents are the same on every run, the
 * BigQuery size of a row, and the figures read back from the page.
 */

/** One record to seed, in the roll-up shard `shard` (0 unless given), so that a fixture's shards are known. */
export interface ShardedSeed {
  received_at: string;
  customer: string;
  model: string;
  status?: RecordStatus;
  shard?: number;
  context?: Record<string, unknown>;
}

const usage: UsageEntry[] = [
  { type: "tokens", metrics: { input_tokens: 1200, output_tokens: 300, total_tokens: 1500 } },
];

/**
 * Records and their roll-up increments as the worker's own roll-up writer makes them, stored as received
 * (on time: no change mark), each with a message id in its seed's shard.
 */
export async function seedShardedRecords(
  db: Firestore,
  organizationId: string,
  declared: readonly string[],
  seeds: readonly ShardedSeed[],
) {
  let batch = db.batch();
  let size = 0;
  for (const seed of seeds) {
    const status = seed.status ?? "priced";
    const context = { billable_customer_id: seed.customer, ...seed.context };
    const record: CostRecord = {
      message_id: messageIdInShard(seed.shard ?? 0),
      request_id: "seeded",
      transaction_index: 0,
      organization_id: organizationId,
      received_at: seed.received_at,
      processed_at: seed.received_at,
      provider: "openai",
      model: seed.model,
      model_tier: null,
      context,
      usage,
      provider_usage_raw: null,
      transaction_id: null,
      duplicate_of: null,
      status,
      unpriced_reason: status === "unpriced" ? "unknown_model" : null,
      cost_usd: null,
      cost_nanos: status === "priced" ? 1_000_000 : null,
      line_items: [],
      pricing: { source: null, version: null, model: null },
      currency: "USD",
      queue_schema_version: 1,
      dimensions: declaredDimensions(context, declared),
    };
    batch.set(db.doc(DOCUMENT_PATHS.transaction(organizationId, record.message_id)), record);
    for (const write of recordRollupWrites(db, record, quantitiesOf(usage), new Date(record.received_at))) {
      batch.set(write.ref, mergeData(write), { merge: true });
    }
    size += 3;
    if (size >= 400) {
      await batch.commit();
      batch = db.batch();
      size = 0;
    }
  }
  if (size > 0) await batch.commit();
}

/** A column of a BigQuery table schema, as `records-schema.json` and Terraform write them. */
export interface BigQueryField {
  name: string;
  type: string;
  mode?: string;
  fields?: BigQueryField[];
}

/** Bytes of one value by BigQuery's data size calculation (its pricing page): NULL is 0 bytes. */
function valueBytes(field: BigQueryField, value: unknown): number {
  switch (field.type) {
    case "STRING":
      return 2 + Buffer.byteLength(String(value));
    case "BYTES":
      return 2 + Buffer.byteLength(String(value), "base64");
    case "INTEGER":
    case "INT64":
    case "FLOAT":
    case "FLOAT64":
    case "TIMESTAMP":
    case "DATE":
    case "DATETIME":
    case "TIME":
      return 8;
    case "BOOLEAN":
    case "BOOL":
      return 1;
    case "NUMERIC":
      return 16;
    case "BIGNUMERIC":
      return 32;
    case "JSON":
      // The UTF-8 bytes of the value's JSON text, canonical (no spaces).
      return Buffer.byteLength(JSON.stringify(value));
    case "RECORD":
    case "STRUCT":
      return bigQueryRowBytes(field.fields ?? [], value as Record<string, unknown>);
    default:
      throw new Error(`no size rule for BigQuery type ${field.type}`);
  }
}

/** The logical bytes BigQuery stores for a row of `fields`; fields the table lacks are dropped, as written. */
export function bigQueryRowBytes(fields: readonly BigQueryField[], row: Record<string, unknown>): number {
  let bytes = 0;
  for (const field of fields) {
    const value = row[field.name];
    if (value === null || value === undefined) continue;
    const values = field.mode === "REPEATED" ? (value as unknown[]) : [value];
    for (const each of values) bytes += valueBytes(field, each);
  }
  return bytes;
}

/**
 * The figures of a page: every table row whose first cell is a `key` in backquotes, with the number in its
 * last cell (thousands separators, a leading `$` and a trailing text after a space are left out).
 */
export function pageFigures(markdown: string): Map<string, { value: number; text: string }> {
  const figures = new Map<string, { value: number; text: string }>();
  for (const line of markdown.split("\n")) {
    const row = /^\|\s*`([a-z0-9_.]+)`\s*\|(.*)\|\s*$/.exec(line);
    if (!row) continue;
    const cells = (row[2] as string).split("|").map((cell) => cell.trim());
    const text = (cells[cells.length - 1] as string).replace(/\*\*/g, "");
    const number = /^\$?(-?[0-9][0-9,]*(?:\.[0-9]+)?)/.exec(text);
    if (!number) throw new Error(`the figure ${row[1]} has no number in its last cell: ${text}`);
    if (figures.has(row[1] as string)) throw new Error(`the figure ${row[1]} is on the page twice`);
    figures.set(row[1] as string, {
      value: Number((number[1] as string).replace(/,/g, "")),
      text: number[1] as string,
    });
  }
  return figures;
}

/** Decimals shown in a figure's text: what it is rounded to. */
export const decimalsOf = (text: string) => text.split(".")[1]?.length ?? 0;
