import { randomUUID } from "node:crypto";
import { MAX_DIMENSIONS } from "@usage-ingestion/organizations";
import { priceAt } from "@usage-ingestion/prices";
import { buildRecord, INDEXED_RECORD_FIELDS } from "@usage-ingestion/records";
import { declaredDimensions } from "@usage-ingestion/reports";
import {
  type CostRecord,
  MAX_CONTEXT_KEYS,
  MAX_IDENTIFIER_BYTES,
  MAX_TRANSACTION_BYTES,
  MAX_TRANSACTION_ID_LENGTH,
  parseQueueMessage,
  QUEUE_SCHEMA_VERSION,
  USAGE_TYPES,
  validateTransaction,
} from "@usage-ingestion/shared";
import { beforeAll, describe, expect, it } from "vitest";
import { type Hcl, parseInfra } from "./hcl.ts";

/**
 * The worst transaction the gateway accepts, stored as the worker stores it, against Firestore's limit of
 * 40,000 index entries per document, counted with the index exemptions infra/modules/firestore declares.
 *
 * Counting follows Firestore's documented rules ("Automatic index defaults" and the "Index entries"
 * example, https://cloud.google.com/firestore/docs/concepts/index-overview#index_entries; the limit:
 * https://cloud.google.com/firestore/quotas#indexes): a scalar field has an ascending and a descending
 * entry; a map has both for the whole map value, and each of its subfields is indexed the same way,
 * recursively; an array has both for the whole array value and one array-contains entry per element,
 * without indexing the fields of maps inside it. An exemption on a field covers its subfields. Each
 * composite index adds one entry per document whose fields it names are all scalars (an array field would
 * add one per element; the records listing's indexes name none), counted from the Terraform below.
 */
const INDEX_ENTRY_LIMIT = 40_000;
/** A Terraform interpolation as hcl2json renders it: `tf("var.x")` is the text "${var.x}". */
const tf = (expression: string) => `\${${expression}}`;
/** What "well under" means here: the records' fixed fields, with room to spare. */
const BOUNDED = 1_000;

type Path = readonly string[];

function indexEntries(value: unknown, path: Path, exempt: (path: Path) => boolean): number {
  if (value === undefined || exempt(path)) return 0;
  if (Array.isArray(value)) return 2 + value.length;
  if (typeof value === "object" && value !== null) {
    let sum = 2;
    for (const [key, item] of Object.entries(value)) sum += indexEntries(item, [...path, key], exempt);
    return sum;
  }
  return 2;
}

/** A document's automatic index entries: the sum over its fields (the document itself is no indexed value). */
function documentIndexEntries(document: object, exemptFieldPaths: readonly string[]) {
  const exempted = exemptFieldPaths.map((fieldPath) => fieldPath.split("."));
  const exempt = (path: Path) => exempted.some((prefix) => prefix.every((segment, i) => path[i] === segment));
  let sum = 0;
  for (const [field, value] of Object.entries(document)) sum += indexEntries(value, [field], exempt);
  return sum;
}

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
const text = (length: number, fill = "x") => fill.repeat(length);

/** Short distinct key names, `a`, `b`, ..., `aa`, ...: the most keys (so index entries) per byte. */
function* shortKeys() {
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  for (let length = 1; ; length++) {
    const total = alphabet.length ** length;
    for (let n = 0; n < total; n++) {
      let name = "";
      for (let rest = n, i = 0; i < length; i++, rest = Math.floor(rest / alphabet.length)) {
        name += alphabet[rest % alphabet.length];
      }
      yield name;
    }
  }
}

/**
 * Fills `target` with `"name":0` members until the transaction is as large as the gateway accepts:
 * about 8 bytes, so 2 index entries, per key.
 */
function fillToLimit(transaction: object, target: Record<string, unknown>) {
  let size = bytes(transaction);
  for (const name of shortKeys()) {
    // `"name":0` plus the comma before it.
    const grows = name.length + 5;
    if (size + grows > MAX_TRANSACTION_BYTES) break;
    target[name] = 0;
    size += grows;
  }
}

const DIMENSIONS = Array.from({ length: MAX_DIMENSIONS }, (_, i) => `dimension_${i}`);

/** Every bound at its maximum: identifiers, 64 context keys (10 of them declared dimensions), 6 usage entries. */
function largestTransaction() {
  const context: Record<string, unknown> = { billable_customer_id: text(MAX_IDENTIFIER_BYTES, "c") };
  for (const name of DIMENSIONS) context[name] = text(MAX_IDENTIFIER_BYTES, "d");
  for (let i = Object.keys(context).length; i < MAX_CONTEXT_KEYS; i++) context[`k${i}`] = `v${i}`;
  const metrics: Record<(typeof USAGE_TYPES)[number], Record<string, unknown>> = {
    tokens: { input_tokens: 1200, output_tokens: 300, total_tokens: 1500, cached_tokens: 200 },
    images: { generated: 1, quality: "hd" },
    audio_seconds: { input_seconds: 12 },
    video_seconds: { processed_seconds: 30 },
    requests: { count: 2, request_type: "web_search", sources_used: 5 },
    custom: { units: 3 },
  };
  return {
    provider: "openai",
    model: "gpt-4o",
    model_tier: text(MAX_IDENTIFIER_BYTES, "t"),
    transaction_id: text(Math.min(MAX_TRANSACTION_ID_LENGTH, MAX_IDENTIFIER_BYTES), "i"),
    context,
    usage: USAGE_TYPES.map((type) => ({ type, metrics: metrics[type] })),
    provider_usage_raw: {} as Record<string, unknown>,
  };
}

type Transaction = ReturnType<typeof largestTransaction>;

/** Where the free-form keys go: under one context key, into the tokens metrics, or into provider_usage_raw. */
type Into = (transaction: Transaction) => Record<string, unknown>;
const intoContext: Into = (transaction) => {
  const blob: Record<string, unknown> = {};
  transaction.context.k63 = blob;
  return blob;
};
const intoMetrics: Into = (transaction) => transaction.usage[0]?.metrics ?? {};
const intoProviderUsageRaw: Into = (transaction) => transaction.provider_usage_raw;
const WORST_CASES: Array<[string, Into]> = [
  ["context (one of its 64 keys holding a large map)", intoContext],
  ["usage metrics (extra keys)", intoMetrics],
  ["provider_usage_raw", intoProviderUsageRaw],
];

/** The gateway's acceptance, the queue message, the worker's pricing and record: the document Firestore indexes. */
function storedRecord(transaction: Transaction): CostRecord {
  const accepted = validateTransaction(transaction, {}, { dimensions: DIMENSIONS });
  if (!accepted.ok) throw new Error(`the gateway refuses it: ${JSON.stringify(accepted.errors.slice(0, 3))}`);
  const wire = JSON.stringify({
    schema_version: QUEUE_SCHEMA_VERSION,
    organization_id: text(63, "o"),
    request_id: randomUUID(),
    transaction_index: 999,
    received_at: new Date().toISOString(),
    transaction: accepted.transaction,
  });
  const parsed = parseQueueMessage(JSON.parse(wire));
  if (!parsed.success) throw new Error("the worker refuses the queue message");
  const message = parsed.output;
  const priced = priceAt(message.transaction, new Date(message.received_at), null);
  const dimensions = declaredDimensions(message.transaction.context, DIMENSIONS);
  const record = buildRecord(randomUUID(), message, priced, new Date(), dimensions);
  // Re-pricing adds `repriced_at`; a repeat of a transaction id sets `duplicate_of`: count both as set.
  return { ...record, repriced_at: new Date().toISOString(), duplicate_of: randomUUID() };
}

let files = new Map<string, Hcl>();
const firestoreModule = () => files.get("modules/firestore/main.tf") ?? {};
/** The field paths exempt from indexing in `transactions`, as the Terraform declares them. */
function exemptedFieldPaths(): string[] {
  const module = firestoreModule();
  const [field] = module.resource?.google_firestore_field?.unindexed ?? [];
  expect(field, "google_firestore_field.unindexed in modules/firestore").toBeDefined();
  expect(field.for_each).toBe(tf("toset(local.unindexed_record_fields)"));
  expect(field.field).toBe(tf("each.value"));
  expect(field.collection).toBe("transactions");
  expect(field.database).toBe(tf("google_firestore_database.default.name"));
  // An empty index_config disables every automatic index of the field; a ttl_config would add a TTL policy.
  expect(field.index_config).toEqual([{}]);
  expect(field.ttl_config).toBeUndefined();
  const paths = (module.locals ?? []).find((block: Hcl) => block.unindexed_record_fields)?.unindexed_record_fields;
  expect(Array.isArray(paths), "local.unindexed_record_fields").toBe(true);
  return paths;
}

/** The fields of `local.record_list_fields`, one composite index each. */
function recordListFields(): string[] {
  const fields = (firestoreModule().locals ?? []).find((block: Hcl) => block.record_list_fields)?.record_list_fields;
  expect(Array.isArray(fields), "local.record_list_fields").toBe(true);
  return fields;
}

/** One entry per composite index, each over bounded scalars (a record's identifiers and its receive time). */
function compositeIndexEntries(record: CostRecord): number {
  const valueAt = (path: string) =>
    path.split(".").reduce<unknown>((value, key) => (value as Record<string, unknown> | null)?.[key], record);
  for (const field of [...recordListFields(), "received_at"]) {
    const value = valueAt(field);
    expect(value === null || typeof value !== "object", `${field} is a scalar`).toBe(true);
  }
  return recordListFields().length;
}

beforeAll(async () => {
  files = await parseInfra();
});

describe("Firestore index entries of a cost record", () => {
  it("counts Firestore's own example as the documentation does (13 automatic entries)", () => {
    const city = {
      city_name: "San Francisco",
      temperatures: { summer: 67, winter: 55 },
      neighborhoods: ["Mission", "Downtown", "Marina"],
    };
    // 11 automatic indexes; `neighborhoods` Array Contains holds one entry per element.
    expect(documentIndexEntries(city, [])).toBe(13);
    expect(documentIndexEntries(city, ["temperatures"])).toBe(7);
  });

  it("has composite indexes for the records listing only, one per field its query may lead with", () => {
    for (const [path, hcl] of files) {
      const indexes = Object.keys(hcl.resource?.google_firestore_index ?? {});
      expect(indexes, path).toEqual(path === "modules/firestore/main.tf" ? ["record_list"] : []);
    }
    const [index] = firestoreModule().resource.google_firestore_index.record_list;
    expect(index).toMatchObject({
      for_each: tf("toset(local.record_list_fields)"),
      database: tf("google_firestore_database.default.name"),
      collection: "transactions",
      query_scope: "COLLECTION",
    });
    // field == value, received_at in a range, newest first, ties by document id, as listRecords queries.
    expect(index.fields).toEqual([
      { field_path: tf("each.value"), order: "ASCENDING" },
      { field_path: "received_at", order: "DESCENDING" },
      { field_path: "__name__", order: "DESCENDING" },
    ]);
    expect([...recordListFields()].sort()).toEqual(Object.values(INDEXED_RECORD_FIELDS).sort());
  });

  it("keeps indexed what the code queries", () => {
    const exempted = exemptedFieldPaths();
    // packages/reports/src/report-source.ts (received_at), scripts/admin (status, request_id,
    // transaction_index), and the roll-ups' `day`, which live in other collections and are not exempted.
    for (const queried of ["received_at", "status", "request_id", "transaction_index", "day"]) {
      expect(exempted).not.toContain(queried);
    }
    expect(exempted).toEqual(expect.arrayContaining(["context", "usage", "provider_usage_raw", "line_items"]));
  });

  it.each(WORST_CASES)("stays well under 40,000 entries with the exemptions, keys in %s", (where, into) => {
    const transaction = largestTransaction();
    fillToLimit(transaction, into(transaction));
    expect(bytes(transaction)).toBeGreaterThan(MAX_TRANSACTION_BYTES - 16);
    const record = storedRecord(transaction);
    const entries = documentIndexEntries(record, exemptedFieldPaths()) + compositeIndexEntries(record);
    console.info(`index entries with the exemptions and composite indexes, keys in ${where}: ${entries}`);
    expect(entries).toBeLessThan(BOUNDED);
  });

  it("would exceed 40,000 entries without them, for a map in context or in provider_usage_raw", () => {
    const cases: Array<[string, Into]> = [
      ["context", intoContext],
      ["provider_usage_raw", intoProviderUsageRaw],
    ];
    for (const [where, into] of cases) {
      const transaction = largestTransaction();
      fillToLimit(transaction, into(transaction));
      const entries = documentIndexEntries(storedRecord(transaction), []);
      console.info(`index entries without exemptions, keys in ${where}: ${entries}`);
      expect(entries, where).toBeGreaterThan(INDEX_ENTRY_LIMIT);
    }
  });

  it("counts the maps inside `usage` as array elements only: the usage exemption is for size, not count", () => {
    const transaction = largestTransaction();
    fillToLimit(transaction, intoMetrics(transaction));
    const record = storedRecord(transaction);
    const usageOnly = documentIndexEntries({ usage: record.usage }, []);
    console.info(`index entries of usage without its exemption, keys in the tokens metrics: ${usageOnly}`);
    // The whole array ascending and descending, and one array-contains entry per usage entry.
    expect(usageOnly).toBe(2 + USAGE_TYPES.length);
  });
});
