import { mkdtempSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { Firestore } from "@google-cloud/firestore";
import { PubSub } from "@google-cloud/pubsub";
import { createApiKey, createOrganization } from "@usage-ingestion/organizations";
import { startEmulators } from "../lib/emulators.ts";
import { REPO_ROOT } from "../lib/services.ts";
import { drainInTurns } from "./backlog-rounds.ts";
import type { BenchContext } from "./context.ts";
import { cpuPlan, pinProcess } from "./cpu-affinity.ts";
import { type BenchResults, printReport } from "./report.ts";
import { reportLatency } from "./report-latency.ts";
import { singleRatio } from "./round-ratios.ts";
import { startBareExpress } from "./steps/bare-express.ts";
import { fairTenants, fairTenantsLines } from "./steps/fair-tenants.ts";
import { startGateway } from "./steps/gateway.ts";
import { HTTP_LIFETIMES, type HttpPair, measureInTurns, type ServerUnderLoad, summarize } from "./steps/http-pair.ts";
import { minimalBacklog } from "./steps/minimal-backlog.ts";
import { warmEmulator } from "./steps/warm-emulator.ts";
import { workerBacklog } from "./steps/worker-backlog.ts";

/**
 * `npm run bench`: the gateway beside a bare Express 5 app (in turns, BENCH_HTTP_ROUNDS times, after the
 * Pub/Sub emulator is warmed up), then the cost worker beside a minimal push handler, all on the emulators
 * in one run. Prints the figures and writes them to bench-results.json
 * (BENCH_OUTPUT elsewhere); nothing here passes or fails. BENCH_STEPS=bare,gateway runs only those
 * (steps: bare, gateway, minimal, worker, fair, reports).
 */
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const backlog = Number(process.env.BENCH_BACKLOG ?? 10_000);
const latencySamples = Number(process.env.BENCH_LATENCY_SAMPLES ?? 200);
const only = process.env.BENCH_STEPS?.split(",");
const runs = (step: string) => !only || only.includes(step);
const output = process.env.BENCH_OUTPUT ?? join(REPO_ROOT, "bench-results.json");
const projectId = "demo-usage-bench";
// Pinned before anything starts, so that the emulators and their JVMs inherit this process's CPUs.
const cpus = cpuPlan();
if (cpus.rest) pinProcess(process.pid, cpus.rest);

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
  const organizationId = "bench";
  await createOrganization(db, organizationId);
  const { key } = await createApiKey({ records: db, keys: db }, organizationId);
  const ctx: BenchContext = {
    projectId,
    organizationId,
    env: emulators.env,
    db,
    pubsub,
    headers: { "x-api-key": key },
    logDir: mkdtempSync(join(tmpdir(), "usage-bench-")),
    seconds,
    ...(cpus.server ? { serverCpus: cpus.server } : {}),
    onCleanup: (step) => cleanups.push(step),
  };
  const results: BenchResults = { node: process.version, loadAverage: loadavg(), seconds, cpus };
  if (runs("bare") || runs("gateway")) {
    const published = await warmEmulator(ctx);
    if (published > 0) console.log(`  ${published.toLocaleString("en-US")} messages published`);
    const bareRounds: HttpPair[] = [];
    const gatewayRounds: HttpPair[] = [];
    const lifetimeRatios: number[] = [];
    let peakRss: number | null = null;
    for (let lifetime = 1; lifetime <= HTTP_LIFETIMES; lifetime++) {
      console.log(`servers started afresh: ${lifetime}/${HTTP_LIFETIMES}`);
      const bare = runs("bare") ? await startBareExpress(ctx) : undefined;
      const gateway = runs("gateway") ? await startGateway(ctx) : undefined;
      const servers = [bare, gateway].filter((server): server is ServerUnderLoad => server !== undefined);
      // The bulk rounds only in the last lifetime: their figure is not a ratio, and moved little between runs.
      const measured = await measureInTurns(servers, lifetime === HTTP_LIFETIMES ? {} : { bulk: false });
      const of = (server: ServerUnderLoad | undefined) => (server ? measured[servers.indexOf(server)] : undefined);
      bareRounds.push(...(of(bare) ?? []));
      gatewayRounds.push(...(of(gateway) ?? []));
      const [bareNow, gatewayNow] = [of(bare), of(gateway)];
      const ratio = bareNow && gatewayNow && singleRatio(summarize(gatewayNow), summarize(bareNow));
      if (ratio) lifetimeRatios.push(ratio.median);
      if (gateway) peakRss = Math.max(peakRss ?? 0, gateway.peakRssMb() ?? 0);
      await Promise.all(servers.map((server) => server.stop()));
    }
    if (bareRounds.length > 0) results.bare = summarize(bareRounds);
    if (gatewayRounds.length > 0) results.gateway = { ...summarize(gatewayRounds), peakRssMb: peakRss };
    const ratio = results.bare && results.gateway && singleRatio(results.gateway, results.bare);
    if (ratio) results.singleRatio = { ...ratio, lifetimes: lifetimeRatios };
  }
  // The worker and its yardstick drain their backlogs in turns, ROUNDS times, as the HTTP servers do.
  const minimal = runs("minimal") ? await minimalBacklog(ctx, backlog) : undefined;
  const worker = runs("worker") ? await workerBacklog(ctx, backlog) : undefined;
  const drains = await drainInTurns([minimal, worker].filter((pipeline) => pipeline !== undefined));
  results.minimal = minimal && drains.get(minimal);
  const workerDrains = worker && drains.get(worker);
  if (worker && workerDrains) {
    console.log(`202-to-record latency: ${latencySamples} requests ...`);
    results.worker = { backlog: workerDrains, acceptToRecord: await worker.latency(latencySamples) };
  }
  // A heavy tenant beside a light one on one gateway with the default limits.
  if (runs("fair")) results.fairTenants = await fairTenants(ctx);
  results.loadAverageAfter = loadavg();
  printReport(results);
  if (results.fairTenants) for (const line of fairTenantsLines(results.fairTenants)) console.log(line);
  // A month of 10,000,000 transactions over 10,000 cells a day, seeded as day, hour and month summaries.
  if (runs("reports")) {
    results.reports = await reportLatency(projectId);
    for (const line of results.reports.lines) console.log(line);
  }
  writeFileSync(output, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nwritten to ${output}; service logs in ${ctx.logDir}`);
  await Promise.allSettled([pubsub.close(), db.terminate()]);
} finally {
  await cleanup();
}
