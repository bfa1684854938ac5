import { join } from "node:path";
import { freePort } from "../../lib/processes.ts";
import { startGatewayProcess } from "../../lib/services.ts";
import { BENCH_RATE_LIMITS, type BenchContext, SERVICE_NODE_OPTIONS, serviceNodeFlags } from "../context.ts";
import { pinProcess } from "../cpu-affinity.ts";
import { peakRssMb } from "../rss.ts";
import type { MeasuredPair, ServerUnderLoad } from "./http-pair.ts";

export interface GatewayFigures extends MeasuredPair {
  /** Over all rounds. */
  peakRssMb: number | null;
}

let started = 0;

/** The built gateway, publishing to a topic nobody reads (the emulator then keeps nothing). */
export async function startGateway(ctx: BenchContext): Promise<ServerUnderLoad & { peakRssMb(): number | null }> {
  // A topic per start: the bench may start the gateway more than once (HTTP_LIFETIMES).
  const topic = `bench-gateway-${++started}`;
  await ctx.pubsub.createTopic(topic);
  const port = await freePort();
  const service = await startGatewayProcess({
    port,
    env: { ...ctx.env, ...BENCH_RATE_LIMITS, PUBSUB_TOPIC: topic, NODE_OPTIONS: SERVICE_NODE_OPTIONS },
    built: true,
    nodeFlags: serviceNodeFlags(),
    logFile: join(ctx.logDir, "gateway.log"),
  });
  ctx.onCleanup(() => service.stop());
  const pid = service.child.pid ?? 0;
  if (ctx.serverCpus) pinProcess(pid, ctx.serverCpus);
  return {
    name: "gateway",
    pid,
    url: `http://127.0.0.1:${port}/usage/transactions`,
    headers: ctx.headers,
    stop: () => service.stop(),
    peakRssMb: () => peakRssMb(pid) ?? null,
  };
}
