import { join } from "node:path";
import { delay, freePort, type GroupProcess } from "../lib/processes.ts";
import { startGatewayProcess } from "../lib/services.ts";
import { defaultTopologyNames, ensureTopology, pushEndpointFor } from "../lib/topology.ts";
import {
  BENCH_RATE_LIMITS,
  type BenchContext,
  BULK_SIZE,
  bulkBody,
  SERVICE_NODE_OPTIONS,
  serviceNodeFlags,
} from "./context.ts";
import { cpuMicros } from "./process-cpu.ts";

export interface DrainFigures {
  transactions: number;
  seconds: number;
  recordsPerSecond: number;
  /** The handler process's own CPU time from the first request to the last record, per record. */
  cpuUsPerRecord: number;
}

/** A handler's pipeline, set up once: each `drain` is one round, a backlog of its own drained. */
export interface BacklogPipeline {
  name: string;
  gatewayUrl: string;
  drain(): Promise<DrainFigures>;
}

/**
 * A topic whose push subscription points at `handler`, and a gateway publishing to it. Each `drain` is a
 * backlog of `transactions` accepted by that gateway (bulks of 100, ten requests at a time), timed from
 * the first request until the handler's last busy moment once `countDone` has grown by the total. The
 * gateway stays up (stopped at clean-up), so a later step can send through the same pipeline.
 */
export async function backlogPipeline(
  ctx: BenchContext,
  options: {
    name: string;
    handler: GroupProcess;
    handlerBaseUrl: string;
    transactions: number;
    countDone: () => Promise<number>;
  },
): Promise<BacklogPipeline> {
  const names = defaultTopologyNames(`bench-${options.name}`);
  await ensureTopology(ctx.pubsub, names, {
    pushEndpoint: pushEndpointFor(options.handlerBaseUrl, ctx.projectId, names.topic),
  });
  const port = await freePort();
  const gateway = await startGatewayProcess({
    port,
    env: { ...ctx.env, ...BENCH_RATE_LIMITS, PUBSUB_TOPIC: names.topic, NODE_OPTIONS: SERVICE_NODE_OPTIONS },
    built: true,
    nodeFlags: serviceNodeFlags(),
    logFile: join(ctx.logDir, `gateway-${options.name}.log`),
  });
  ctx.onCleanup(() => gateway.stop());
  const url = `http://127.0.0.1:${port}/usage/transactions`;
  const requests = Math.ceil(options.transactions / BULK_SIZE);
  const pid = options.handler.child.pid ?? 0;

  const drain = async (): Promise<DrainFigures> => {
    const before = await options.countDone();
    const cpuBefore = cpuMicros(pid);
    const started = Date.now();
    let next = 0;
    const sender = async () => {
      while (next < requests) {
        next++;
        const response = await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json", ...ctx.headers },
          body: bulkBody,
        });
        await response.arrayBuffer();
        if (response.status !== 202)
          throw new Error(`the gateway answered ${response.status} while feeding the backlog`);
      }
    };
    await Promise.all(Array.from({ length: 10 }, sender));
    const total = requests * BULK_SIZE;
    const { endedAt, cpuAtEnd } = await drained(
      options.name,
      pid,
      async () => (await options.countDone()) >= before + total,
    );
    const seconds = (endedAt - started) / 1000;
    const cpu = cpuAtEnd - cpuBefore;
    return { transactions: total, seconds, recordsPerSecond: total / seconds, cpuUsPerRecord: cpu / total };
  };
  return { name: options.name, gatewayUrl: url, drain };
}

const SAMPLE_MS = 100;
const IDLE_MS = 1_000;
/** A handler that spent less than this share of a sample on the CPU was idle in it. */
const BUSY_SHARE = 0.2;

/**
 * Waits until the handler has stored the whole backlog and returns when its last busy moment was, with
 * its CPU time then. Counting the stored documents is the proof, but a count scans the whole collection
 * on the emulator (about 0.4 s of its CPU at 30,000 documents): counted every 250 ms, it took half a core
 * from the drain it measured, and more per record from the slower handler. So the handler's own CPU is
 * sampled every 100 ms, and the count is asked only after it has been idle for a second (again each
 * second while it stays idle, as when the emulator holds pushes back).
 */
async function drained(
  name: string,
  pid: number,
  done: () => Promise<boolean>,
): Promise<{ endedAt: number; cpuAtEnd: number }> {
  const deadline = Date.now() + 900_000;
  let lastBusy = { at: Date.now(), cpu: cpuMicros(pid) };
  let previous = lastBusy.cpu;
  let countedAt = 0;
  for (;;) {
    await delay(SAMPLE_MS);
    const cpu = cpuMicros(pid);
    if (cpu - previous >= SAMPLE_MS * 1000 * BUSY_SHARE) lastBusy = { at: Date.now(), cpu };
    previous = cpu;
    const now = Date.now();
    if (now - lastBusy.at >= IDLE_MS && now - countedAt >= IDLE_MS) {
      countedAt = now;
      if (await done()) return { endedAt: lastBusy.at, cpuAtEnd: lastBusy.cpu };
    }
    if (now > deadline) throw new Error(`the ${name} handler did not drain the backlog`);
  }
}

/** Drain figures over rounds: each figure is its own median, and every round is kept beside them. */
export interface MedianDrain extends DrainFigures {
  rounds: DrainFigures[];
}

const medianOf = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] ?? 0;

export function medianDrain(rounds: DrainFigures[]): MedianDrain {
  return {
    transactions: rounds[0]?.transactions ?? 0,
    seconds: medianOf(rounds.map((round) => round.seconds)),
    recordsPerSecond: medianOf(rounds.map((round) => round.recordsPerSecond)),
    cpuUsPerRecord: medianOf(rounds.map((round) => round.cpuUsPerRecord)),
    rounds,
  };
}
