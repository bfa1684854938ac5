import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createApiKey, createOrganization } from "@usage-ingestion/organizations";
import { freePort } from "../../lib/processes.ts";
import { REPO_ROOT, startGatewayProcess } from "../../lib/services.ts";
import { type BenchContext, SERVICE_NODE_OPTIONS, serviceNodeFlags, singleBody, transaction } from "../context.ts";
import { pinProcess } from "../cpu-affinity.ts";
import { type LoadResult, load } from "../load.ts";
import { peakRssMb } from "../rss.ts";

/** What the heavy tenant sends, each on its own loops, beside the light tenant's single transactions. */
export const HEAVY_LOADS = ["members", "attributes", "bytes"] as const;

export interface FairTenantsFigures {
  /** The light tenant alone, then beside the heavy one: its own latency. */
  light: { alone: LoadResult; besideHeavy: LoadResult };
  /** The light tenant's p99 beside the heavy one over its p99 alone: the target is at most 2. */
  p99Ratio: number;
  /** The heavy tenant's answers by status, per kind of heavy request. */
  heavy: Record<(typeof HEAVY_LOADS)[number], { requests: number; non2xx: number }>;
  /** The gateway's peak RSS over the step (target: 200 MB). */
  peakRssMb: number | null;
}

const LIGHT_RATE = Number(process.env.BENCH_FAIR_LIGHT_RATE ?? 100);
const HEAVY_LOOPS = Number(process.env.BENCH_FAIR_HEAVY_LOOPS ?? 4);

/** The findings' heavy requests: 300,000 unknown members, one span of 100,000 attributes, 5 MB of valid usage. */
function heavyBodies() {
  const members = JSON.stringify({
    ...transaction,
    ...Object.fromEntries(Array.from({ length: 300_000 }, (_, i) => [`m${i}`, 1])),
  });
  const attributes = JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: [{ key: "service.name", value: { stringValue: "heavy" } }] },
        scopeSpans: [
          {
            spans: [
              {
                traceId: "5b8efff798038103d269b633813fc60c",
                spanId: "0000000000000001",
                name: "chat",
                attributes: Array.from({ length: 100_000 }, (_, i) => ({ key: `a${i}`, value: { intValue: i } })),
              },
            ],
          },
        ],
      },
    ],
  });
  // Valid transactions, each with a 4.5 KiB raw usage object, as many as fit in 5 MB.
  const raw = { note: "x".repeat(4_500) };
  const bytes = JSON.stringify({
    transactions: Array.from({ length: 1_000 }, () => ({ ...transaction, provider_usage_raw: raw })),
  });
  return { members, attributes, bytes };
}

/**
 * A heavy tenant beside a light one on one gateway with the default limits: the light tenant's single
 * transactions at a steady rate alone, then again while the heavy tenant sends, on HEAVY_LOOPS loops each,
 * the findings' heavy requests. The light tenant's p99 should stay within 2x its own alone, and the
 * gateway's RSS within its 200 MB target.
 */
export async function fairTenants(ctx: BenchContext): Promise<FairTenantsFigures> {
  const topic = "bench-fair-tenants";
  await ctx.pubsub.createTopic(topic).catch(() => undefined);
  const keys: Record<string, string> = {};
  for (const name of ["bench-light", "bench-heavy"]) {
    await createOrganization(ctx.db, name).catch(() => undefined);
    keys[name] = (await createApiKey({ records: ctx.db, keys: ctx.db }, name)).key;
  }
  const port = await freePort();
  // The default limits: what stands between the two tenants is what the step measures.
  const service = await startGatewayProcess({
    port,
    env: { ...ctx.env, PUBSUB_TOPIC: topic, NODE_OPTIONS: SERVICE_NODE_OPTIONS },
    built: true,
    nodeFlags: serviceNodeFlags(),
    logFile: join(ctx.logDir, "gateway-fair.log"),
  });
  ctx.onCleanup(() => service.stop());
  const pid = service.child.pid ?? 0;
  if (ctx.serverCpus) pinProcess(pid, ctx.serverCpus);
  const base = `http://127.0.0.1:${port}`;
  const light = () =>
    load({
      url: `${base}/usage/transactions`,
      body: singleBody,
      headers: { "x-api-key": keys["bench-light"] as string },
      connections: 10,
      durationSeconds: ctx.seconds,
      overallRate: LIGHT_RATE,
    });
  // Warm the gateway's key cache and code paths, then the light tenant alone.
  await load({
    ...{ url: `${base}/usage/transactions`, body: singleBody },
    headers: { "x-api-key": keys["bench-light"] as string },
    connections: 2,
    durationSeconds: 2,
  });
  const alone = await light();
  const bodies = heavyBodies();
  // Each heavy load from a process of its own: megabytes a request would otherwise starve this process,
  // which measures the light tenant's latency.
  const heavyLoads = HEAVY_LOADS.map((kind) => {
    const file = join(ctx.logDir, `heavy-${kind}.json`);
    writeFileSync(file, bodies[kind]);
    return heavyProcess(`${base}${kind === "attributes" ? "/v1/traces" : "/usage/transactions"}`, file, {
      key: keys["bench-heavy"] as string,
      connections: HEAVY_LOOPS,
      seconds: ctx.seconds,
    });
  });
  const [besideHeavy, ...heavy] = await Promise.all([light(), ...heavyLoads]);
  const figures: FairTenantsFigures = {
    light: { alone, besideHeavy: besideHeavy as LoadResult },
    p99Ratio: (besideHeavy as LoadResult).p99 / Math.max(1, alone.p99),
    heavy: Object.fromEntries(
      HEAVY_LOADS.map((kind, i) => [kind, { requests: heavy[i]?.total ?? 0, non2xx: heavy[i]?.non2xx ?? 0 }]),
    ) as FairTenantsFigures["heavy"],
    peakRssMb: peakRssMb(pid) ?? null,
  };
  await service.stop();
  return figures;
}

/** autocannon's command line on one heavy body: its requests and non-2xx answers. */
function heavyProcess(
  url: string,
  file: string,
  options: { key: string; connections: number; seconds: number },
): Promise<{ total: number; non2xx: number }> {
  return new Promise((resolve, reject) => {
    const args = ["-j", "-c", String(options.connections), "-d", String(options.seconds), "-m", "POST"];
    args.push("-H", "content-type=application/json", "-H", `x-api-key=${options.key}`, "-i", file, url);
    const child = spawn(join(REPO_ROOT, "node_modules", ".bin", "autocannon"), args, { cwd: REPO_ROOT });
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
    });
    child.stderr.resume();
    child.once("error", reject);
    child.once("close", () => {
      try {
        const result = JSON.parse(out) as { requests: { total: number }; non2xx: number };
        resolve({ total: result.requests.total, non2xx: result.non2xx });
      } catch (error) {
        reject(error);
      }
    });
  });
}

/** The step's lines for the report. */
export function fairTenantsLines(figures: FairTenantsFigures): string[] {
  const { alone, besideHeavy } = figures.light;
  return [
    "\nA heavy tenant beside a light one (default limits, one gateway):",
    `  light tenant p99 alone ${alone.p99} ms, beside the heavy one ${besideHeavy.p99} ms: ${figures.p99Ratio.toFixed(2)}x (target <= 2x); p50 ${alone.p50} -> ${besideHeavy.p50} ms; non-2xx ${besideHeavy.non2xx}`,
    ...HEAVY_LOADS.map(
      (kind) => `  heavy ${kind}: ${figures.heavy[kind].requests} requests, ${figures.heavy[kind].non2xx} refused`,
    ),
    `  gateway peak RSS ${figures.peakRssMb?.toFixed(0) ?? "?"} MB (target 200 MB)`,
  ];
}
