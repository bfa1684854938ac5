import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseWorkerConfig } from "@usage-ingestion/cost-worker";
import { priceAt, unpricedBecause } from "@usage-ingestion/prices";
import { buildRecord, RECORDS_TOPIC, recordRow, withdrawalRow } from "@usage-ingestion/records";
import { type CostRecord, QUEUE_SCHEMA_VERSION, validateTransaction } from "@usage-ingestion/shared";
import { beforeAll, describe, expect, it } from "vitest";
import { defaultTopologyNames } from "../../scripts/lib/topology.ts";
import { validTransaction } from "../setup/fixtures.ts";
import { type Hcl, INFRA, infraQuery, parseInfra, tf } from "./hcl.ts";

/**
 * The records table's schema is defined once, in infra/modules/analytics/records-schema.json (Terraform
 * reads it with file()). The BigQuery subscription writes each published message's JSON fields into the
 * columns of the same names, and refuses (or drops) what does not fit: this holds the row the worker
 * publishes to that schema, field by field, for records of every kind.
 */
interface Column {
  name: string;
  type: string;
  mode?: "NULLABLE" | "REQUIRED" | "REPEATED";
  fields?: Column[];
}
const SCHEMA = JSON.parse(readFileSync(join(INFRA, "modules/analytics/records-schema.json"), "utf8")) as Column[];

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;
/** BigQuery NUMERIC: 29 digits before the point and 9 after; BIGNUMERIC: 38 after. */
const NUMERIC = /^-?\d{1,29}(\.\d{1,9})?$/;
const BIGNUMERIC = /^-?\d{1,38}(\.\d{1,38})?$/;

/** Every way a value does not fit its column, as `path: problem`; none for a row that fits. */
function misfits(value: unknown, column: Column, path: string): string[] {
  if (column.mode === "REPEATED") {
    if (!Array.isArray(value)) return [`${path}: REPEATED needs an array, got ${JSON.stringify(value)}`];
    return value.flatMap((item, index) => misfits(item, { ...column, mode: "REQUIRED" }, `${path}.${index}`));
  }
  if (value === null || value === undefined) return column.mode === "REQUIRED" ? [`${path}: REQUIRED but null`] : [];
  const fits: Record<string, (v: unknown) => boolean> = {
    STRING: (v) => typeof v === "string",
    INTEGER: (v) => Number.isSafeInteger(v),
    FLOAT: (v) => typeof v === "number" && Number.isFinite(v),
    NUMERIC: (v) => typeof v === "string" && NUMERIC.test(v),
    BIGNUMERIC: (v) => typeof v === "string" && BIGNUMERIC.test(v),
    TIMESTAMP: (v) => typeof v === "string" && ISO_UTC.test(v) && !Number.isNaN(Date.parse(v)),
    BOOLEAN: (v) => typeof v === "boolean",
  };
  if (column.type === "RECORD") {
    if (typeof value !== "object" || Array.isArray(value)) return [`${path}: RECORD needs an object`];
    return fieldMisfits(value as Record<string, unknown>, column.fields ?? [], path);
  }
  const check = fits[column.type];
  if (!check) return [`${path}: no check for column type ${column.type}`];
  return check(value) ? [] : [`${path}: ${JSON.stringify(value)} is not a ${column.type}`];
}

function fieldMisfits(row: Record<string, unknown>, columns: Column[], path: string): string[] {
  const named = new Map(columns.map((column) => [column.name, column]));
  const unknown = Object.keys(row)
    .filter((name) => !named.has(name))
    .map((name) => `${path}.${name}: no such column`);
  return [...unknown, ...columns.flatMap((column) => misfits(row[column.name], column, `${path}.${column.name}`))];
}

const message = (transaction: Record<string, unknown>, receivedAt = "2025-11-01T12:00:00.000Z") => {
  const validated = validateTransaction(transaction);
  if (!validated.ok) throw new Error(JSON.stringify(validated.errors));
  return {
    schema_version: QUEUE_SCHEMA_VERSION as 1,
    organization_id: "org-a",
    request_id: "request-1",
    transaction_index: 0,
    received_at: receivedAt,
    transaction: validated.transaction,
  };
};

/** Records as the worker builds them, priced by its own pricing, and as re-pricing and duplicates leave them. */
function records(): Record<string, CostRecord> {
  const processed = new Date("2025-11-01T12:00:01.000Z");
  const rich = message(
    validTransaction({
      transaction_id: "resp-1",
      model_tier: "batch",
      usage: [
        { type: "tokens", metrics: { input_tokens: 1200, cached_tokens: 200, output_tokens: 300, total_tokens: 1500 } },
      ],
      context: { billable_customer_id: "cust-7", feature: "chat" },
      provider_cost: "0.0075123",
    }),
  );
  const priced = buildRecord("m-1", rich, priceAt(rich.transaction, processed, null), processed, {
    feature: "chat",
    team: null,
  });
  const audio = message(
    validTransaction({
      provider: "openai",
      model: "whisper-1",
      usage: [{ type: "audio_seconds", metrics: { input_seconds: 12.5 } }],
    }),
  );
  const seconds = buildRecord("m-2", audio, priceAt(audio.transaction, processed, null), processed);
  const unknown = message(validTransaction({ model: "no-such-model" }));
  const unpriced = buildRecord("m-3", unknown, unpricedBecause("unknown_model: no price"), processed);
  return {
    priced,
    seconds,
    unpriced,
    repriced: { ...priced, revision: 3, repriced_at: "2026-01-02T03:04:05.678Z" },
    duplicate: {
      ...priced,
      message_id: "m-4",
      status: "duplicate",
      duplicate_of: "m-1",
      cost_usd: null,
      cost_nanos: null,
      line_items: [],
    },
  };
}

let files = new Map<string, Hcl>();
beforeAll(async () => {
  files = await parseInfra();
});

describe("the records table's schema (infra/modules/analytics/records-schema.json)", () => {
  it("holds every row the worker publishes: each field a column of a compatible type, required ones present", () => {
    const rows = [
      ...Object.entries(records()).map(([kind, record]) => [kind, recordRow(record, new Date())] as const),
      ["withdrawal", withdrawalRow(records().priced as CostRecord, new Date())] as const,
    ];
    expect(rows.find(([kind]) => kind === "priced")?.[1].line_items.length).toBeGreaterThan(0);
    expect(rows.find(([kind]) => kind === "seconds")?.[1].quantities.audio_seconds).toBe(12.5);
    // The vendor's own cost, twelve places: more than NUMERIC's nine, so BIGNUMERIC.
    expect(rows.find(([kind]) => kind === "priced")?.[1]).toMatchObject({
      provider_reported_cost: "0.007512300000",
      provider_reported_cost_picos: 7_512_300_000,
    });
    // None: the column is left NULL, and the message no larger than before.
    expect(rows.find(([kind]) => kind === "seconds")?.[1]).not.toHaveProperty("provider_reported_cost");
    expect(rows.find(([kind]) => kind === "withdrawal")?.[1]).not.toHaveProperty("provider_reported_cost");
    for (const [kind, row] of rows) {
      expect({ kind, misfits: fieldMisfits(row as unknown as Record<string, unknown>, SCHEMA, "row") }).toEqual({
        kind,
        misfits: [],
      });
    }
  });

  it("has a column for every field of the row, and no column the worker never fills", () => {
    const row = recordRow(records().priced as CostRecord, new Date());
    expect(SCHEMA.map((column) => column.name).sort()).toEqual(Object.keys(row).sort());
  });

  it("finds a row that does not fit: a wrong type, a missing required field, a field with no column", () => {
    const row = recordRow(records().priced as CostRecord, new Date()) as unknown as Record<string, unknown>;
    expect(fieldMisfits({ ...row, cost_usd: 0.5 }, SCHEMA, "row")).toEqual(["row.cost_usd: 0.5 is not a NUMERIC"]);
    expect(fieldMisfits({ ...row, revision: null }, SCHEMA, "row")).toEqual(["row.revision: REQUIRED but null"]);
    expect(fieldMisfits({ ...row, extra: 1 }, SCHEMA, "row")).toEqual(["row.extra: no such column"]);
    expect(fieldMisfits({ ...row, received_at: "2025-11-01" }, SCHEMA, "row")).toEqual([
      'row.received_at: "2025-11-01" is not a TIMESTAMP',
    ]);
  });
});

describe("the records feed in Terraform", () => {
  const q = () => infraQuery(files);

  it("reads the schema from that one file, partitions by receive day with expiry, clusters for reports", () => {
    const table = q().resource("analytics", "google_bigquery_table", "records");
    expect(table.schema).toBe(tf(`file("${tf("path.module")}/records-schema.json")`));
    expect(table.time_partitioning[0]).toEqual({
      type: "DAY",
      field: "received_at",
      expiration_ms: tf("local.partition_expiration_ms"),
    });
    expect(table.clustering).toEqual(["organization_id", "billable_customer_id", "model"]);
    expect(table.deletion_protection).toBe(true);
  });

  it("keeps the latest revision per message id in the view", () => {
    const view = q().resource("analytics", "google_bigquery_table", "records_latest").view[0];
    expect(view.use_legacy_sql).toBe(false);
    const sql = (view.query as string).replace(/\s+/g, " ");
    expect(sql).toContain("PARTITION BY organization_id, received_at, message_id");
    expect(sql).toContain("ORDER BY revision DESC, published_at DESC");
    expect(sql).toContain("WHERE row_rank = 1 AND status != 'withdrawn'");
    expect(sql).toContain(tf("google_bigquery_table.records.table_id"));
  });

  it("writes the records topic into the table by a BigQuery subscription with the table's schema and dead letters", () => {
    const subscription = q().resource("analytics", "google_pubsub_subscription", "records_to_bigquery");
    expect(subscription.topic).toBe(tf("var.records_topic_id"));
    expect(subscription.bigquery_config[0]).toMatchObject({ use_table_schema: true, write_metadata: false });
    expect(subscription.bigquery_config[0].table).toContain(tf("google_bigquery_table.records.table_id"));
    expect(subscription.dead_letter_policy[0].dead_letter_topic).toBe(tf("google_pubsub_topic.records_dead_letter.id"));
    expect(q().resource("analytics", "google_pubsub_subscription", "records_dead_letter_hold").topic).toBe(
      tf("google_pubsub_topic.records_dead_letter.id"),
    );
    expect(q().exampleModule("analytics").records_topic_id).toBe(tf("module.pubsub.records_topic_id"));
  });

  it("lets Pub/Sub's service agent write that table and dead-letter, named as the IAM member the iam module outputs", () => {
    const agent = q().output("modules/iam", "pubsub_service_agent").value as string;
    expect(agent.startsWith("serviceAccount:service-")).toBe(true);
    expect(q().exampleModule("analytics").pubsub_service_agent).toBe(tf("module.iam.pubsub_service_agent"));
    for (const [type, name] of [
      ["google_bigquery_table_iam_member", "pubsub_writes_records"],
      ["google_bigquery_table_iam_member", "pubsub_writes"],
      ["google_pubsub_topic_iam_member", "agent_publishes_records_dead_letters"],
      ["google_pubsub_subscription_iam_member", "agent_acks_records"],
    ] as const) {
      // Passed through as it is: "serviceAccount:" is already in it.
      expect(q().resource("analytics", type, name).member).toBe(tf("var.pubsub_service_agent"));
    }
    expect(q().resource("analytics", "google_bigquery_table_iam_member", "pubsub_writes_records")).toMatchObject({
      role: "roles/bigquery.dataEditor",
      table_id: tf("google_bigquery_table.records.table_id"),
    });
    expect(q().resource("analytics", "google_bigquery_table_iam_member", "pubsub_writes").table_id).toBe(
      tf("google_bigquery_table.transactions.table_id"),
    );
    // Tables, not the dataset: no grant lets the agent write every table of it.
    expect(
      q()
        .inFolder("modules/analytics")
        .filter((hcl) => hcl.resource?.google_bigquery_dataset_iam_member),
    ).toEqual([]);
  });

  it("never lets a BigQuery subscription expire for inactivity", () => {
    for (const name of ["records_to_bigquery", "to_bigquery", "records_dead_letter_hold"]) {
      expect(q().resource("analytics", "google_pubsub_subscription", name).expiration_policy).toEqual([{ ttl: "" }]);
    }
  });

  it("names the records topic as the worker and the local stack do, and lets the worker publish to it", () => {
    expect(q().variable("modules/pubsub", "records_topic_name").default).toBe(RECORDS_TOPIC);
    expect(parseWorkerConfig({}).RECORDS_TOPIC).toBe(RECORDS_TOPIC);
    expect(defaultTopologyNames().recordsTopic).toBe(RECORDS_TOPIC);
    expect(q().exampleModule("worker").records_topic_name).toBe(tf("module.pubsub.records_topic_name"));
    expect(q().resource("iam", "google_pubsub_topic_iam_member", "worker_publishes_records")).toMatchObject({
      topic: tf("var.records_topic_id"),
      role: "roles/pubsub.publisher",
      member: `serviceAccount:${tf("google_service_account.worker.email")}`,
    });
  });
});
