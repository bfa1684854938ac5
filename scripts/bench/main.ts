import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Firestore } from "@google-cloud/firestore";
import { PubSub } from "@google-cloud/pubsub";
import { DOCUMENT_PATHS } from "@usage-ingestion/shared";
import { createApiKey, createOrganization } from "../admin/organizations.ts";
import { startEmulators } from "../lib/emulators.ts";
import { delay, freePort, httpOk, spawnGroup, waitFor } from "../lib/processes.ts";
import { REPO_ROOT, startGatewayProcess, startWorkerProcess } from "../lib/services.ts";
import { defaultTopologyNames, ensureTopology, pushEndpointFor } from "../lib/topology.ts";
import { load } from "./load.ts";
import { reportLatency } from "./report-latency.ts";
import { peakRssMb } from "./rss.ts";

/**
 * `npm run bench`: the gateway against a bare Express 5 app on the same machine in one run, then the
 * cost worker's throughput and the 202-to-record latency, all on the emulators. Prints figures only;
 * nothing here passes or fails.
 */
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const workerMessages = Number(process.env.BENCH_WORKER_MESSAGES ?? 2000);
const projectId = "demo-usage-bench";
/** The heap cap the deployed services use (infra sets NODE_OPTIONS): without it V8 grows lazily under load. */
const NODE_OPTIONS = "--max-old-space-size=192";

const transaction = {
  provider: "openai",
  model: "gpt-4o",
  usage: [
    { type: "tokens", metrics: { input_tokens: 1200, cached_tokens: 200, output_tokens: 300, total_tokens: 1500 } },
  ],
  context: { billable_customer_id: "customer-1", feature: "chat", environment: "bench" },
};
const single = JSON.stringify(transaction);
const bulk100 = JSON.stringify({ transactions: Array.from({ length: 100 }, () => transaction) });

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
const fmt = (n: number, digits = 0) =>
  n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

const emulators = await startEmulators({ projectId });
Object.assign(process.env, emulators.env);
const cleanups: Array<() => Promise<void>> = [() => emulators.stop()];
const cleanup = async () => {
  for (const step of cleanups.reverse()) await step().catch(() => undefined);
};
process.on("SIGINT", () => void cleanup().then(() => process.exit(130)));

try {
  const db = new Firestore({ projectId });
  const pubsub = new PubSub({ projectId });
  await createOrganization(db, "bench");
  const { key } = await createApiKey(db, "bench");
  const headers = { "x-api-key": key };

  // 1. The yardstick.
  const barePort = await freePort();
  const bare = spawnGroup(process.execPath, ["--import", "tsx", "scripts/bench/bare-app.ts"], {
    cwd: REPO_ROOT,
    env: { ...process.env, PORT: String(barePort) },
  });
  cleanups.push(() => bare.stop());
  await waitFor(
    async () => (await fetch(`http://127.0.0.1:${barePort}/usage/transactions`, { method: "POST", body: "{}" })).ok,
    30_000,
    () => "the bare app did not start",
  );
  console.log(`bare Express 5 app: ${connections} connections, ${seconds} s ...`);
  const bareSingle = await load({
    url: `http://127.0.0.1:${barePort}/usage/transactions`,
    body: single,
    connections,
    durationSeconds: seconds,
  });
  const bareBulk = await load({
    url: `http://127.0.0.1:${barePort}/usage/transactions`,
    body: bulk100,
    connections,
    durationSeconds: seconds,
  });
  await bare.stop();

  // 2. The gateway, publishing to a topic nobody reads (the emulator then keeps nothing).
  const gatewayTopic = "bench-gateway";
  await pubsub.createTopic(gatewayTopic);
  const gatewayPort = await freePort();
  const logDir = mkdtempSync(join(tmpdir(), "usage-bench-"));
  const gateway = await startGatewayProcess({
    port: gatewayPort,
    env: { ...emulators.env, PUBSUB_TOPIC: gatewayTopic, NODE_OPTIONS },
    built: true,
    logFile: join(logDir, "gateway.log"),
  });
  cleanups.push(() => gateway.stop());
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}/usage/transactions`;
  await load({ url: gatewayUrl, body: single, headers, connections: 10, durationSeconds: 2 }); // warm-up
  console.log(`gateway: ${connections} connections, ${seconds} s ...`);
  const gwSingle = await load({ url: gatewayUrl, body: single, headers, connections, durationSeconds: seconds });
  const gwBulk = await load({ url: gatewayUrl, body: bulk100, headers, connections, durationSeconds: seconds });
  const gatewayRss = peakRssMb(gateway.child.pid ?? 0);
  await gateway.stop();

  // 2b. Diagnostic: the same app with an in-memory publisher, so the emulator's share shows.
  const ownPort = await freePort();
  const own = spawnGroup(process.execPath, ["--import", "tsx", "scripts/bench/gateway-without-queue.ts"], {
    cwd: REPO_ROOT,
    env: { ...process.env, PORT: String(ownPort), NODE_OPTIONS },
    logFile: join(logDir, "gateway-without-queue.log"),
  });
  cleanups.push(() => own.stop());
  await waitFor(
    () => httpOk(`http://127.0.0.1:${ownPort}/healthz`),
    30_000,
    () => "the diagnostic gateway did not start",
  );
  const ownUrl = `http://127.0.0.1:${ownPort}/usage/transactions`;
  await load({ url: ownUrl, body: single, headers, connections: 10, durationSeconds: 2 });
  console.log(`gateway without Pub/Sub (diagnostic): ${connections} connections, ${seconds} s ...`);
  const ownSingle = await load({ url: ownUrl, body: single, headers, connections, durationSeconds: seconds });
  const ownBulk = await load({ url: ownUrl, body: bulk100, headers, connections, durationSeconds: seconds });
  await own.stop();

  // 3. The worker: records/s from a backlog, then 202-to-record latency at a moderate rate.
  const workerPort = await freePort();
  const worker = await startWorkerProcess({
    port: workerPort,
    env: { ...emulators.env, CUSTOM_PRICING_CACHE_TTL_MS: "60000", NODE_OPTIONS },
    built: true,
    logFile: join(logDir, "worker.log"),
  });
  cleanups.push(() => worker.stop());
  const names = defaultTopologyNames("bench-worker");
  await ensureTopology(pubsub, names, {
    pushEndpoint: pushEndpointFor(`http://127.0.0.1:${workerPort}`, projectId, names.topic),
  });
  const e2ePort = await freePort();
  const e2eGateway = await startGatewayProcess({
    port: e2ePort,
    env: { ...emulators.env, PUBSUB_TOPIC: names.topic, NODE_OPTIONS },
    built: true,
    logFile: join(logDir, "gateway-e2e.log"),
  });
  cleanups.push(() => e2eGateway.stop());
  const records = db.collection(DOCUMENT_PATHS.transactions("bench"));
  const countRecords = async () => (await records.count().get()).data().count;

  const topic = pubsub.topic(names.topic, { batching: { maxMessages: 1000, maxMilliseconds: 5 } });
  const envelopeFor = (index: number) =>
    Buffer.from(
      JSON.stringify({
        schema_version: 1,
        organization_id: "bench",
        request_id: "00000000-0000-4000-8000-000000000000",
        transaction_index: index,
        received_at: new Date().toISOString(),
        transaction,
      }),
    );
  console.log(`worker: ${workerMessages} queued messages ...`);
  const backlogStart = Date.now();
  await Promise.all(Array.from({ length: workerMessages }, (_, i) => topic.publishMessage({ data: envelopeFor(i) })));
  await waitFor(
    async () => (await countRecords()) >= workerMessages,
    600_000,
    () => "the worker did not drain the backlog",
  );
  const backlogSeconds = (Date.now() - backlogStart) / 1000;

  // The worker alone: pushes sent straight to it (as Pub/Sub would) from many connections at once.
  let pushed = 0;
  const direct = await load({
    url: `http://127.0.0.1:${workerPort}/projects/${projectId}/topics/${names.topic}`,
    body: "{}",
    connections: 20,
    durationSeconds: seconds,
    nextBody: () => {
      pushed++;
      return JSON.stringify({
        message: { data: envelopeFor(pushed).toString("base64"), messageId: `direct-${pushed}` },
        subscription: `projects/${projectId}/subscriptions/${names.subscription}`,
      });
    },
  });

  const latencies: number[] = [];
  const samples = Number(process.env.BENCH_LATENCY_SAMPLES ?? 200);
  const gatewayE2eUrl = `http://127.0.0.1:${e2ePort}/usage/transactions`;
  const pending: Array<Promise<void>> = [];
  for (let i = 0; i < samples; i++) {
    const response = await fetch(gatewayE2eUrl, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: single,
    });
    const acceptedAt = Date.now();
    const id = ((await response.json()) as { results: Array<{ message_id: string }> }).results[0]?.message_id as string;
    pending.push(
      (async () => {
        const doc = records.doc(id);
        for (;;) {
          const snap = await doc.get();
          if (snap.exists && snap.createTime) {
            latencies.push(snap.createTime.toMillis() - acceptedAt);
            return;
          }
          await delay(20);
        }
      })(),
    );
    await delay(20);
  }
  await Promise.all(pending);
  latencies.sort((a, b) => a - b);

  const rows: Array<[string, string, string, string]> = [
    [
      "single transaction, requests/s",
      fmt(gwSingle.requestsPerSecond),
      fmt(bareSingle.requestsPerSecond),
      `${fmt(gwSingle.requestsPerSecond / bareSingle.requestsPerSecond, 2)} (target >= 0.80)`,
    ],
    ["single transaction, p50 ms", fmt(gwSingle.p50, 1), fmt(bareSingle.p50, 1), ""],
    ["single transaction, p99 ms", fmt(gwSingle.p99, 1), fmt(bareSingle.p99, 1), "(target <= 30 ms)"],
    [
      "bulk of 100, transactions/s",
      fmt(gwBulk.requestsPerSecond * 100),
      fmt(bareBulk.requestsPerSecond * 100),
      `${fmt(gwBulk.requestsPerSecond / bareBulk.requestsPerSecond, 2)} (target >= 50,000/s)`,
    ],
    ["bulk of 100, p99 ms", fmt(gwBulk.p99, 1), fmt(bareBulk.p99, 1), ""],
    [
      "diagnostic: no Pub/Sub, single req/s",
      fmt(ownSingle.requestsPerSecond),
      fmt(bareSingle.requestsPerSecond),
      `${fmt(ownSingle.requestsPerSecond / bareSingle.requestsPerSecond, 2)} p99 ${fmt(ownSingle.p99)} ms`,
    ],
    [
      "diagnostic: no Pub/Sub, bulk tx/s",
      fmt(ownBulk.requestsPerSecond * 100),
      fmt(bareBulk.requestsPerSecond * 100),
      fmt(ownBulk.requestsPerSecond / bareBulk.requestsPerSecond, 2),
    ],
    ["gateway peak RSS, MB", gatewayRss ? fmt(gatewayRss, 1) : "n/a", "", "(target <= 200 MB)"],
    [
      "non-2xx / errors (gateway)",
      `${gwSingle.non2xx + gwBulk.non2xx} / ${gwSingle.errors + gwBulk.errors}`,
      `${bareSingle.non2xx + bareBulk.non2xx} / ${bareSingle.errors + bareBulk.errors}`,
      "",
    ],
    [
      "worker records/s (direct push)",
      fmt(direct.requestsPerSecond, 1),
      "",
      `20 connections; p99 ${fmt(direct.p99)} ms, non-2xx ${direct.non2xx}`,
    ],
    [
      "worker records/s (emulator push)",
      fmt(workerMessages / backlogSeconds, 1),
      "",
      `${workerMessages} messages in ${fmt(backlogSeconds, 1)} s`,
    ],
    ["202-to-record p50 ms", fmt(percentile(latencies, 0.5)), "", `${samples} requests, one every ~20 ms`],
    ["202-to-record p99 ms", fmt(percentile(latencies, 0.99)), "", ""],
  ];
  const widths = [34, 14, 14, 0];
  console.log(
    `\n${"measure".padEnd(widths[0] as number)}${"gateway".padStart(widths[1] as number)}${"bare app".padStart(widths[2] as number)}  ratio / note`,
  );
  for (const [label, ours, bare, note] of rows) {
    console.log(
      `${label.padEnd(widths[0] as number)}${ours.padStart(widths[1] as number)}${bare.padStart(widths[2] as number)}  ${note}`,
    );
  }
  console.log(
    `\n(${connections} connections, ${seconds} s per load, autocannon in this process; services built and run with NODE_OPTIONS=${NODE_OPTIONS}; Node ${process.version})`,
  );
  for (const line of await reportLatency(projectId)) console.log(line);
  await topic.flush();
  await Promise.allSettled([pubsub.close(), db.terminate()]);
} finally {
  await cleanup();
}
