import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { Firestore } from "@google-cloud/firestore";
import { evaluateBudgets } from "@usage-ingestion/budgets";
import type { OrganizationDocument } from "@usage-ingestion/organizations";
import { handleMessage } from "@usage-ingestion/records";
import {
  DEFAULT_FOLD_OPTIONS,
  DEFAULT_REPORT_LIMITS,
  firestoreReportSource,
  foldDue,
  HOUR_MS,
} from "@usage-ingestion/reports";
import { DOCUMENT_PATHS } from "@usage-ingestion/shared";
import { dispatchEvents } from "@usage-ingestion/webhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { budgetOf } from "../setup/budgets.ts";
import {
  type BigQueryField,
  bigQueryRowBytes,
  decimalsOf,
  pageFigures,
  type ShardedSeed,
  seedShardedRecords,
} from "../setup/cost-to-run.ts";
import { startTestGateway } from "../setup/gateway.ts";
import { type FirestoreCounts, firestoreMeter, type PublishRequest, pubsubMeter } from "../setup/grpc-meter.ts";
import { firestore, pullableTopic, seedOrganization } from "../setup/harness.ts";
import { emulatorCommits, pushEvent, recordsFeed, workerDeps } from "../setup/worker.ts";

/**
 * Counts what one transaction, one report and one run of each scheduled step cost on Google Cloud, with
 * the real gateway, worker, reports, fold, budget evaluation and webhook dispatch on the emulators, and
 * holds docs/cost-to-run.md to the counts: every figure on the page is one counted here, and the price per
 * million transactions on the page is worked again from the page's own figures and prices.
 *
 * Every Firestore and Pub/Sub call this file's processes make goes through a meter (test/setup/grpc-meter.ts),
 * which decodes them as the services bill them, in a project of this file's own: the fold and the budget
 * evaluation list every organization of their project.
 */

const PAGE = readFileSync(new URL("../../docs/cost-to-run.md", import.meta.url), "utf8");
const RECORDS_SCHEMA = JSON.parse(
  readFileSync(new URL("../../infra/modules/analytics/records-schema.json", import.meta.url), "utf8"),
) as BigQueryField[];
/** The raw transactions table's columns (infra/modules/analytics/main.tf, a subscription with write_metadata). */
const TRANSACTIONS_SCHEMA: BigQueryField[] = [
  { name: "subscription_name", type: "STRING" },
  { name: "message_id", type: "STRING" },
  { name: "publish_time", type: "TIMESTAMP" },
  { name: "data", type: "JSON" },
  { name: "attributes", type: "JSON" },
];
/** The BigQuery subscription's name as it writes it, in the example environment's project. */
const SUBSCRIPTION_NAME = "projects/my-project/subscriptions/usage-transactions-bigquery";

/** What this file counted, by the figure's name on the page. */
const counted = new Map<string, number>();
const count = (key: string, value: number) => {
  expect(counted.has(key), `${key} counted twice`).toBe(false);
  counted.set(key, value);
};

/** How far a fold's or a report's counted reads may stray from the page's figure (see below). */
const READ_SLACK = 2;

let fs: Awaited<ReturnType<typeof firestoreMeter>>;
let ps: Awaited<ReturnType<typeof pubsubMeter>>;
const saved: Record<string, string | undefined> = {};
beforeAll(async () => {
  fs = await firestoreMeter(process.env.FIRESTORE_EMULATOR_HOST as string);
  ps = await pubsubMeter(process.env.PUBSUB_EMULATOR_HOST as string);
  for (const name of ["FIRESTORE_EMULATOR_HOST", "PUBSUB_EMULATOR_HOST", "GOOGLE_CLOUD_PROJECT"]) {
    saved[name] = process.env[name];
  }
  // Before any client is made: every client of this file talks to the emulators through the meters.
  process.env.FIRESTORE_EMULATOR_HOST = fs.host;
  process.env.PUBSUB_EMULATOR_HOST = ps.host;
  process.env.GOOGLE_CLOUD_PROJECT = `cost-${randomUUID().slice(0, 8)}`;
});
afterAll(async () => {
  Object.assign(process.env, saved);
  await fs?.close();
  await ps?.close();
});

/** Every step below is measured through here: what Firestore would bill, and no call left unmetered. */
let deletes = 0;
async function measured<T>(step: () => Promise<T>) {
  const run = await fs.measure(step);
  deletes += run.counts.deletes;
  expect(run.counts.unmetered).toEqual([]);
  return run;
}

/** The collection a document path is in (`organizations/o/transactions/m`: `transactions`). */
const collectionOf = (path: string) => path.split("/").slice(-2)[0];
const readsIn = (counts: FirestoreCounts, collection: string) =>
  counts.read.filter((path) => collectionOf(path) === collection).length;
const bytesOf = (requests: PublishRequest[]) =>
  requests.flatMap((request) => request.messages).reduce((sum, each) => sum + each.data + each.attributes, 0);

/** Message ids as Pub/Sub gives them: 17 digits (the emulator's are shorter). */
let lastId = 0n;
const messageId = () => String(10n ** 16n + ++lastId);

/** A trace context as Cloud Run passes it to the gateway, which forwards it on every message. */
const traceparent = () => `00-${randomUUID().replace(/-/g, "")}-${randomUUID().replace(/-/g, "").slice(0, 16)}-01`;

/** The README's first transaction. */
const TRANSACTION = {
  provider: "openai",
  model: "gpt-4o",
  usage: [{ type: "tokens", metrics: { input_tokens: 1200, output_tokens: 300, total_tokens: 1500 } }],
  context: { billable_customer_id: "customer-1", feature: "chat" },
};

describe("one transaction", () => {
  const setup = {} as {
    org: Awaited<ReturnType<typeof seedOrganization>>;
    usage: Awaited<ReturnType<typeof pullableTopic>>;
    records: Awaited<ReturnType<typeof pullableTopic>>;
    gateway: Awaited<ReturnType<typeof startTestGateway>>;
    deps: ReturnType<typeof workerDeps>;
  };
  beforeAll(async () => {
    setup.org = await seedOrganization();
    await firestore()
      .doc(DOCUMENT_PATHS.organization(setup.org.organizationId))
      .update({ dimensions: ["feature"] });
    setup.usage = await pullableTopic();
    setup.records = await pullableTopic();
    // The key and the organization's settings are cached as deployed, but for an hour rather than 10 s, so
    // that a slow machine never sees them expire between the cold transaction and the warm ones.
    setup.gateway = await startTestGateway({ topicName: setup.usage.topicName, keyCacheTtlMs: HOUR_MS });
    setup.deps = workerDeps(firestore(), 10_000, HOUR_MS, emulatorCommits(), recordsFeed(setup.records.topicName));
  });
  afterAll(() => setup.gateway?.close());

  /**
   * `body` posted to the gateway, its messages pulled and pushed to the worker one by one as the push
   * subscription does, and the rows the worker published pulled back: what each step cost.
   */
  async function ingest(body: unknown, transactions: number) {
    const requestsBefore = setup.gateway.logger.lines.filter((line) => line.fields?.httpRequest).length;
    const post = await measured(() =>
      ps.measure(() => setup.gateway.post(body, { "x-api-key": setup.org.apiKey, traceparent: traceparent() })),
    );
    expect(post.result.result.status).toBe(202);
    const messages = await setup.usage.pull(transactions);
    expect(messages).toHaveLength(transactions);
    const worker = { reads: 0, writes: 0, deletes: 0, refused: 0, invocations: 0, published: [] as PublishRequest[] };
    const outcomes: string[] = [];
    for (const message of messages) {
      const handled = await measured(() =>
        ps.measure(() => handleMessage(setup.deps, pushEvent(message.data, messageId()))),
      );
      outcomes.push(handled.result.result);
      worker.invocations += 1;
      worker.reads += handled.counts.reads;
      worker.writes += handled.counts.writes;
      worker.deletes += handled.counts.deletes;
      worker.refused += handled.counts.refusedCommits;
      worker.published.push(...handled.result.requests);
    }
    const rows = await setup.records.pull(transactions);
    expect(rows).toHaveLength(transactions);
    const gatewayRequests =
      setup.gateway.logger.lines.filter((line) => line.fields?.httpRequest).length - requestsBefore;
    return { gateway: post.counts, gatewayRequests, published: post.result.requests, messages, worker, rows, outcomes };
  }

  const rowBytes = (rows: Array<{ data: unknown }>) =>
    rows.reduce((sum, row) => sum + bigQueryRowBytes(RECORDS_SCHEMA, row.data as Record<string, unknown>), 0);
  const rawRowBytes = (messages: Array<{ data: unknown; attributes: Record<string, string> }>) =>
    messages.reduce(
      (sum, message) =>
        sum +
        bigQueryRowBytes(TRANSACTIONS_SCHEMA, {
          subscription_name: SUBSCRIPTION_NAME,
          message_id: messageId(),
          publish_time: "2026-11-28T00:00:00Z",
          data: message.data,
          attributes: message.attributes,
        }),
      0,
    );

  it("costs, on a worker and a gateway that have not seen the key and organization for 10 s, these reads", async () => {
    const cold = await ingest(TRANSACTION, 1);
    // The key and its organization; then the organization's dimensions, custom prices and the platform's.
    count("cold.gateway.firestore_reads", cold.gateway.reads);
    count("cold.worker.firestore_reads", cold.worker.reads);
    expect(cold.outcomes).toEqual(["priced"]);
  });

  it("costs, one transaction a request, these calls, documents and bytes", async () => {
    const one = await ingest(TRANSACTION, 1);
    expect(one.outcomes).toEqual(["priced"]);
    count("tx.gateway.requests", one.gatewayRequests);
    count("tx.gateway.firestore_reads", one.gateway.reads);
    count("tx.usage.publish_requests", one.published.length);
    count("tx.usage.message_bytes", bytesOf(one.published));
    count("tx.worker.invocations", one.worker.invocations);
    count("tx.worker.firestore_reads", one.worker.reads);
    count("tx.worker.firestore_writes", one.worker.writes);
    count("tx.firestore.deletes", one.gateway.deletes + one.worker.deletes);
    count("tx.records.publish_requests", one.worker.published.length);
    count("tx.records.message_bytes", bytesOf(one.worker.published));
    count("tx.bigquery.records_row_bytes", rowBytes(one.rows));
    count("tx.bigquery.transactions_row_bytes", rawRowBytes(one.messages));
    expect(one.gateway.writes + one.worker.refused).toBe(0);
  });

  it("costs one more write with a transaction_id, or unpriced; a repeated id costs a read and one write", async () => {
    const id = randomUUID();
    const claimed = await ingest({ ...TRANSACTION, transaction_id: id }, 1);
    expect(claimed.outcomes).toEqual(["priced"]);
    count("tx_id.worker.firestore_writes", claimed.worker.writes);
    const unpriced = await ingest({ ...TRANSACTION, model: "a-model-nobody-prices" }, 1);
    expect(unpriced.outcomes).toEqual(["unpriced"]);
    count("unpriced.worker.firestore_writes", unpriced.worker.writes);
    const repeated = await ingest({ ...TRANSACTION, transaction_id: id }, 1);
    expect(repeated.outcomes).toEqual(["duplicate"]);
    count("duplicate.worker.firestore_reads", repeated.worker.reads);
    count("duplicate.worker.firestore_writes", repeated.worker.writes);
    expect(repeated.worker.refused).toBe(1);
  });

  it("costs, from the client (bulks of 100, each with a transaction_id), these for 100", async () => {
    const transactions = Array.from({ length: 100 }, (_, i) => ({
      ...TRANSACTION,
      context: { ...TRANSACTION.context, billable_customer_id: `customer-${i % 10}` },
      transaction_id: randomUUID(),
    }));
    const bulk = await ingest({ transactions }, 100);
    expect(new Set(bulk.outcomes)).toEqual(new Set(["priced"]));
    count("client.gateway.requests", bulk.gatewayRequests);
    count("client.usage.publish_requests", bulk.published.length);
    count("client.usage.message_bytes", bytesOf(bulk.published));
    // Each message is pushed alone: under 1,000 bytes with its timestamp and id, each is billed 1,000.
    const largest = Math.max(
      ...bulk.published.flatMap((request) => request.messages.map((m) => m.data + m.attributes)),
    );
    count("client.usage.largest_message_bytes", largest);
    count("client.worker.invocations", bulk.worker.invocations);
    count("client.firestore_reads", bulk.worker.reads + bulk.gateway.reads);
    count("client.worker.firestore_writes", bulk.worker.writes);
    count("client.records.publish_requests", bulk.worker.published.length);
    count("client.records.message_bytes", bytesOf(bulk.worker.published));
    count("client.bigquery.records_row_bytes", rowBytes(bulk.rows));
    count("client.bigquery.transactions_row_bytes", rawRowBytes(bulk.messages));
  }, 120_000);
});

describe("reports and the scheduled steps", () => {
  /** One organization with a month of history (October 2026) and a day in progress (2026-11-03). */
  const setup = {} as {
    org: Awaited<ReturnType<typeof seedOrganization>>;
    db: Firestore;
    big: Firestore;
    gateway: Awaited<ReturnType<typeof startTestGateway>>;
    /** Every document read by the fold's runs, in order, for the reads of each record. */
    foldReads: string[];
  };
  const NOW = "2026-11-03T10:30:30.000Z";

  const seeds: ShardedSeed[] = [];
  const customers = ["a", "b", "c"];
  const models = ["gpt-4o", "gpt-4o-mini"];
  for (let day = 1; day <= 31; day++) {
    const date = `2026-10-${String(day).padStart(2, "0")}`;
    for (const customer of customers)
      for (const model of models)
        seeds.push({ received_at: `${date}T12:00:00.000Z`, customer, model, context: { feature: "chat" } });
  }
  for (const date of ["2026-11-01", "2026-11-02"])
    for (const customer of customers)
      for (const model of models) seeds.push({ received_at: `${date}T12:00:00.000Z`, customer, model });
  for (const at of ["2026-10-10T12:30:00.000Z", "2026-10-20T12:30:00.000Z", "2026-11-02T12:30:00.000Z"])
    seeds.push({ received_at: at, customer: "a", model: "a-model-nobody-prices", status: "unpriced" });
  // Today: two customers every hour until 10:00, then a third at 10:05, 10:12, 10:20, 10:24, 10:28 and 10:29.
  for (let hour = 0; hour < 10; hour++)
    for (const customer of ["a", "b"])
      seeds.push({ received_at: `2026-11-03T${String(hour).padStart(2, "0")}:30:00.000Z`, customer, model: "gpt-4o" });
  const hourTen = ["05", "12", "20", "24", "28", "29"].map((minute) => `2026-11-03T10:${minute}:00.000Z`);
  for (const at of hourTen) seeds.push({ received_at: at, customer: "c", model: "gpt-4o-mini" });

  beforeAll(async () => {
    setup.org = await seedOrganization();
    const project = `cost-runs-${randomUUID().slice(0, 8)}`;
    setup.db = new Firestore({ projectId: project });
    setup.big = new Firestore({ projectId: project, useBigInt: true });
    setup.foldReads = [];
    // The keys stay in the gateway's database (as the keys database is apart in Google Cloud); the
    // organization's settings, budget and usage are in this project.
    const organization: OrganizationDocument = {
      name: "Cost to run",
      status: "active",
      created_at: "2026-01-01T00:00:00.000Z",
      dimensions: ["feature"],
      has_budgets: true,
    };
    await setup.db.doc(DOCUMENT_PATHS.organization(setup.org.organizationId)).set(organization);
    await setup.db
      .doc(DOCUMENT_PATHS.budget(setup.org.organizationId, "monthly"))
      .set(budgetOf({ amount_usd: "1000000", period: "month" }, "monthly"));
    await seedShardedRecords(setup.db, setup.org.organizationId, ["feature"], seeds);
    setup.gateway = await startTestGateway({
      topicName: (await pullableTopic()).topicName,
      reportSource: firestoreReportSource(setup.big),
      now: () => new Date(NOW),
      keyCacheTtlMs: HOUR_MS,
    });
  });
  afterAll(() => setup.gateway?.close());

  /** One run of the fold step at `at`, as the scheduled function runs it: every organization of the project. */
  async function fold(at: string) {
    const run = await measured(() => foldDue(setup.big, Date.parse(at), DEFAULT_FOLD_OPTIONS));
    setup.foldReads.push(...run.counts.read);
    return run;
  }

  /** A report as the read key asks for it; the key's look-up is cached by a first request, not counted. */
  async function report(path: string) {
    const get = () => fetch(`${setup.gateway.baseUrl}${path}`, { headers: { "x-api-key": setup.org.readKey } });
    const first = await get();
    expect(first.status).toBe(200);
    await first.arrayBuffer();
    const run = await measured(async () => {
      const response = await get();
      return { status: response.status, body: await response.json() };
    });
    expect(run.result.status).toBe(200);
    expect(run.counts.writes).toBe(0);
    return run;
  }

  it("folds: a run that finds nothing new, and a run after a minute with a record", async () => {
    // The first run catches up on the look-back (35 days, 48 hours) and folds October; then the open hour
    // is folded up to 10:22.
    await fold("2026-11-03T10:25:30.000Z");
    const idle = await fold("2026-11-03T10:26:30.000Z");
    count("fold.idle.firestore_reads", idle.counts.reads);
    count("fold.idle.firestore_writes", idle.counts.writes);
    const minute = await fold("2026-11-03T10:30:30.000Z");
    // The open hour up to 10:27: its summary before, plus the one record since (10:24).
    expect(readsIn(minute.counts, "transactions")).toBe(1);
    count("fold.minute.firestore_reads_fixed", minute.counts.reads - readsIn(minute.counts, "transactions"));
    count("fold.minute.firestore_writes", minute.counts.writes);
  });

  it("answers a month by customer and model, today so far, and the unpriced list with these reads", async () => {
    const month = await report("/usage/costs?from=2026-10-01&to=2026-11-01&group_by=billable_customer_id,model");
    expect(month.result.body.totals.transactions).toBe(31 * 6 + 2);
    count("report.month.firestore_reads", month.counts.reads);
    const today = await report(
      "/usage/costs?from=2026-11-03&to=2026-11-03T10:30:00Z&group_by=billable_customer_id,model",
    );
    expect(today.result.body.totals.transactions).toBe(20 + 6);
    // Ten hour summaries, the open hour's summary up to 10:27, and the records since (10:28, 10:29).
    expect(readsIn(today.counts, "transactions")).toBe(2);
    count("report.today.firestore_reads", today.counts.reads);
    // The dashboard's range: 30 days to now. Whole days from the unpriced cells; today from its records.
    const unpriced = await report("/usage/unpriced?from=2026-10-04&to=2026-11-03T10:30:00Z");
    expect(unpriced.result.body.total_transactions).toBe(3);
    expect(readsIn(unpriced.counts, "unpriced_rollups")).toBe(3);
    count("report.unpriced.firestore_reads", unpriced.counts.reads);
    count("report.unpriced.record_reads", readsIn(unpriced.counts, "transactions"));
  });

  it("evaluates the budgets and dispatches the webhooks of a run with these reads", async () => {
    const run = await measured(() =>
      evaluateBudgets(setup.big, new Date(NOW), { limits: DEFAULT_REPORT_LIMITS, known: new Set() }),
    );
    expect(run.result).toMatchObject({ organizations: 1, budgets: 1, created: [], failed: [] });
    // Today is read from its roll-up shards: three cells, each in one shard here.
    // The month so far: its ended days from their summaries (1 and 2 November), today from its shards.
    const summaries = readsIn(run.counts, "cost_summaries");
    const shards = readsIn(run.counts, "cost_rollups");
    count("budgets.run.day_summary_reads", summaries);
    count("budgets.run.shard_reads", shards);
    count("budgets.run.firestore_reads_fixed", run.counts.reads - summaries - shards);
    count("budgets.run.firestore_writes", run.counts.writes);
    const dispatch = await measured(() =>
      dispatchEvents({ db: setup.db, queue: { queue: async () => {} }, now: () => new Date(NOW) }),
    );
    expect(dispatch.result.dispatched).toBe(0);
    count("dispatch.idle.firestore_reads", dispatch.counts.reads);
    count("dispatch.idle.firestore_writes", dispatch.counts.writes);
  });

  it("folds each record twice, and an ended hour and an ended day once", async () => {
    await fold("2026-11-03T10:33:30.000Z");
    const hour = await fold("2026-11-03T11:03:30.000Z");
    expect(readsIn(hour.counts, "transactions")).toBe(hourTen.length);
    count("fold.hour_end.firestore_reads_fixed", hour.counts.reads - readsIn(hour.counts, "transactions"));
    count("fold.hour_end.firestore_writes", hour.counts.writes);
    // Each record of 10:00-11:00: once into the open hour's summary, once into the hour's.
    const { docs } = await setup.db
      .collection(DOCUMENT_PATHS.transactions(setup.org.organizationId))
      .where("received_at", ">=", "2026-11-03T10:00:00.000Z")
      .where("received_at", "<", "2026-11-03T11:00:00.000Z")
      .get();
    const reads = docs.map((doc) => setup.foldReads.filter((path) => path === doc.ref.path).length);
    expect(new Set(reads).size).toBe(1);
    count("tx.fold.firestore_reads", reads[0] as number);
    for (let hourOfDay = 12; hourOfDay <= 23; hourOfDay++)
      await fold(`2026-11-03T${String(hourOfDay).padStart(2, "0")}:03:30.000Z`);
    const day = await fold("2026-11-04T00:03:30.000Z");
    // The ended hour (23:00, no records) and the ended day, from its roll-up shards.
    count("fold.day_end.shard_reads", readsIn(day.counts, "cost_rollups"));
    count("fold.day_end.firestore_reads_fixed", day.counts.reads - readsIn(day.counts, "cost_rollups"));
    count("fold.day_end.firestore_writes", day.counts.writes);
  }, 120_000);

  it("folds an ended month once", async () => {
    // An organization of its own, whose days of October are folded, in a project of its own.
    const project = `cost-month-${randomUUID().slice(0, 8)}`;
    const db = new Firestore({ projectId: project });
    const big = new Firestore({ projectId: project, useBigInt: true });
    const organizationId = "month-end";
    await db.doc(DOCUMENT_PATHS.organization(organizationId)).set({
      name: "Month end",
      status: "active",
      created_at: "2026-01-01T00:00:00.000Z",
      dimensions: [],
    } satisfies OrganizationDocument);
    await seedShardedRecords(
      db,
      organizationId,
      [],
      [
        { received_at: "2026-10-30T12:00:00.000Z", customer: "a", model: "gpt-4o" },
        { received_at: "2026-10-31T12:00:00.000Z", customer: "a", model: "gpt-4o" },
      ],
    );
    await foldDue(big, Date.parse("2026-10-31T23:50:30.000Z"), DEFAULT_FOLD_OPTIONS);
    const run = await measured(() => foldDue(big, Date.parse("2026-11-01T00:03:30.000Z"), DEFAULT_FOLD_OPTIONS));
    expect(run.result.folded.map((each) => each.period.kind)).toEqual(["hour", "day", "month"]);
    count("fold.month_end.firestore_reads", run.counts.reads);
    count("fold.month_end.firestore_writes", run.counts.writes);
  });
});

describe("docs/cost-to-run.md", () => {
  const page = pageFigures(PAGE);
  const figure = (key: string) => {
    const found = page.get(key);
    if (!found) throw new Error(`docs/cost-to-run.md has no figure ${key}`);
    return found.value;
  };

  it("states each figure as counted above, and only figures counted above", () => {
    count("all.firestore.deletes", deletes);
    // The reads of a fold or a report vary by a query or two between runs: the Firestore client resumes a
    // stream that stalls on a loaded machine (billed again), and an open hour's partial is judged fresh
    // against the wall clock. Those counts may differ from the page by READ_SLACK; every other one not at all.
    for (const [key, value] of counted) {
      const slack = /^(fold|report)\..*reads/.test(key) ? READ_SLACK : 0;
      expect(
        Math.abs((page.get(key)?.value ?? Number.NaN) - value),
        `${key}: page ${page.get(key)?.value}, counted ${value}`,
      ).toBeLessThanOrEqual(slack);
    }
    const stated = [...page.keys()].filter((key) => !/^(price|cost|month)\./.test(key));
    expect(stated.filter((key) => !counted.has(key))).toEqual([]);
  });

  it("works the price per million transactions and per month from the page's figures and prices", () => {
    const worked = costLines(figure);
    for (const [key, value] of Object.entries(worked)) {
      const stated = page.get(key);
      expect(stated, `docs/cost-to-run.md has no line ${key}`).toBeDefined();
      const tolerance = 0.5 * 10 ** -decimalsOf(stated?.text as string) + 1e-9;
      expect(Math.abs(value - (stated?.value as number)), `${key}: worked ${value}`).toBeLessThanOrEqual(tolerance);
    }
    const lines = [...page.keys()].filter((key) => /^(cost|month)\./.test(key));
    expect(lines.filter((key) => !(key in worked))).toEqual([]);
  });
});

/**
 * The page's arithmetic, from its figures and prices: each line's USD. Pub/Sub bills a message as its data,
 * attributes, 20 bytes of timestamp and its id (17 bytes), and at least 1,000 bytes a request.
 */
function costLines(figure: (key: string) => number): Record<string, number> {
  const MILLION = 1_000_000;
  const TIB = 2 ** 40;
  const GIB = 2 ** 30;
  const overhead = figure("price.pubsub.message_overhead_bytes");
  const minimum = figure("price.pubsub.request_minimum_bytes");
  const billed = (bytes: number, messages: number) => Math.max(minimum, bytes + messages * overhead);
  const pubsub = (bytes: number) => (bytes / TIB) * figure("price.pubsub.tib");
  const bigquerySubscription = (bytes: number) => (bytes / TIB) * figure("price.pubsub.bigquery_subscription_tib");
  const read = figure("price.firestore.read");
  const write = figure("price.firestore.write");

  /** One transaction a request, no transaction_id. */
  const single = {
    "cost.single.firestore_writes": MILLION * figure("tx.worker.firestore_writes") * write,
    "cost.single.firestore_reads":
      MILLION *
      (figure("tx.gateway.firestore_reads") + figure("tx.worker.firestore_reads") + figure("tx.fold.firestore_reads")) *
      read,
    "cost.single.pubsub_usage_publish": pubsub(
      MILLION * figure("tx.usage.publish_requests") * billed(figure("tx.usage.message_bytes"), 1),
    ),
    "cost.single.pubsub_usage_push": pubsub(MILLION * billed(figure("tx.usage.message_bytes"), 1)),
    "cost.single.pubsub_usage_bigquery": bigquerySubscription(MILLION * (figure("tx.usage.message_bytes") + overhead)),
    "cost.single.pubsub_records_publish": pubsub(
      MILLION * figure("tx.records.publish_requests") * billed(figure("tx.records.message_bytes"), 1),
    ),
    "cost.single.pubsub_records_bigquery": bigquerySubscription(
      MILLION * (figure("tx.records.message_bytes") + overhead),
    ),
    "cost.single.worker_requests": MILLION * figure("tx.worker.invocations") * figure("price.run.request"),
  };
  const singleTotal = Object.values(single).reduce((sum, each) => sum + each, 0);

  /** The client's bulks of 100, each with a transaction_id: the figures are for 100 transactions. */
  const per = MILLION / 100;
  const client = {
    "cost.client.firestore_writes": per * figure("client.worker.firestore_writes") * write,
    "cost.client.firestore_reads":
      per * figure("client.firestore_reads") * read + MILLION * figure("tx.fold.firestore_reads") * read,
    "cost.client.pubsub_usage_publish": pubsub(
      per * billed(figure("client.usage.message_bytes"), 100) * figure("client.usage.publish_requests"),
    ),
    "cost.client.pubsub_usage_push": pubsub(MILLION * billed(figure("client.usage.largest_message_bytes"), 1)),
    "cost.client.pubsub_usage_bigquery": bigquerySubscription(
      per * (figure("client.usage.message_bytes") + 100 * overhead),
    ),
    "cost.client.pubsub_records_publish": pubsub(per * (figure("client.records.message_bytes") + 100 * overhead)),
    "cost.client.pubsub_records_bigquery": bigquerySubscription(
      per * (figure("client.records.message_bytes") + 100 * overhead),
    ),
    "cost.client.worker_requests": per * figure("client.worker.invocations") * figure("price.run.request"),
  };
  const clientTotal = Object.values(client).reduce((sum, each) => sum + each, 0);

  /** BigQuery storage of a million transactions' rows, a month (active logical storage). */
  const storage = {
    "cost.single.bigquery_storage_month":
      ((MILLION * (figure("tx.bigquery.records_row_bytes") + figure("tx.bigquery.transactions_row_bytes"))) / GIB) *
      figure("price.bigquery.active_storage_gib_month"),
    "cost.client.bigquery_storage_month":
      ((per * (figure("client.bigquery.records_row_bytes") + figure("client.bigquery.transactions_row_bytes"))) / GIB) *
      figure("price.bigquery.active_storage_gib_month"),
  };

  /**
   * A month (30 days): one organization's scheduled runs, a fold and a budget evaluation every minute, for
   * an organization that sends something every minute; and what the deployment's ticks cost.
   */
  const RUNS = 30 * 24 * 60;
  const hours = 30 * 24;
  const days = 30;
  const foldReads =
    (RUNS - hours) * figure("fold.minute.firestore_reads_fixed") +
    (hours - days) * figure("fold.hour_end.firestore_reads_fixed") +
    (days - 1) * figure("fold.day_end.firestore_reads_fixed") +
    figure("fold.month_end.firestore_reads");
  const foldWrites =
    (RUNS - hours) * figure("fold.minute.firestore_writes") +
    (hours - days) * figure("fold.hour_end.firestore_writes") +
    (days - 1) * figure("fold.day_end.firestore_writes") +
    figure("fold.month_end.firestore_writes");
  const shards = figure("month.example_today_shards");
  // On 3 November a run read the summaries of the 2 days ended; on day d, of d - 1: 0 + 1 + ... + 29.
  const perEndedDay = figure("budgets.run.day_summary_reads") / 2;
  const daySummaries = ((days * (days - 1)) / 2) * 24 * 60 * perEndedDay;
  // Settings cached 10 s by each instance: a 10-second window of a busy instance reads them again.
  const windows = (30 * 24 * 3600) / 10;
  const month = {
    "month.fold.firestore": foldReads * read + foldWrites * write,
    "month.budgets.firestore": (RUNS * (figure("budgets.run.firestore_reads_fixed") + shards) + daySummaries) * read,
    "month.worker_settings.firestore": windows * figure("cold.worker.firestore_reads") * read,
    "month.gateway_key.firestore": windows * figure("cold.gateway.firestore_reads") * read,
    "month.dispatch.firestore": RUNS * figure("dispatch.idle.firestore_reads") * read,
    // Three jobs, each tick published (4-8 bytes: the 1,000-byte minimum) and pushed to its function.
    "month.ticks.pubsub": pubsub(3 * RUNS * 2 * minimum),
    "month.ticks.requests": 3 * RUNS * figure("price.run.request"),
    "month.scheduler.jobs": 3 * figure("price.scheduler.job_month"),
  };
  /** A thousand reports of each kind, as counted (each is also one request to the reports service). */
  const reports = {
    "cost.report.month_per_1000": 1000 * figure("report.month.firestore_reads") * read,
    "cost.report.today_per_1000": 1000 * figure("report.today.firestore_reads") * read,
    "cost.report.unpriced_per_1000": 1000 * figure("report.unpriced.firestore_reads") * read,
  };
  return {
    ...single,
    "cost.single.total": singleTotal,
    ...client,
    "cost.client.total": clientTotal,
    ...storage,
    ...month,
    ...reports,
    "month.example_today_shards": shards,
  };
}
