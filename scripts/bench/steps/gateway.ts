import { join } from "node:path";
import { freePort } from "../../lib/processes.ts";
import { startGatewayProcess } from "../../lib/services.ts";
import { type BenchContext, SERVICE_NODE_OPTIONS, serviceNodeFlags } from "../context.ts";
import { peakRssMb } from "../rss.ts";
import { type HttpPair, singleAndBulk } from "./http-pair.ts";

export interface GatewayFigures extends HttpPair {
  peakRssMb: number | null;
}

/** Step 2: the built gateway, publishing to a topic nobody reads (the emulator then keeps nothing). */
export async function gateway(ctx: BenchContext): Promise<GatewayFigures> {
  const topic = "bench-gateway";
  await ctx.pubsub.createTopic(topic);
  const port = await freePort();
  const service = await startGatewayProcess({
    port,
    env: { ...ctx.env, PUBSUB_TOPIC: topic, NODE_OPTIONS: SERVICE_NODE_OPTIONS },
    built: true,
    nodeFlags: serviceNodeFlags(),
    logFile: join(ctx.logDir, "gateway.log"),
  });
  ctx.onCleanup(() => service.stop());
  const url = `http://127.0.0.1:${port}/usage/transactions`;
  console.log(`gateway: ${ctx.seconds} s single, ${ctx.seconds} s bulk ...`);
  const figures = await singleAndBulk({ pid: service.child.pid ?? 0, url, seconds: ctx.seconds, headers: ctx.headers });
  const rss = peakRssMb(service.child.pid ?? 0) ?? null;
  await service.stop();
  return { ...figures, peakRssMb: rss };
}
