import { BULK_SIZE, bulkBody, singleBody } from "../context.ts";
import { type HttpFigures, measuredLoad } from "../http-load.ts";
import { load } from "../load.ts";

/** Seconds of each load every server gets before it is measured, so that V8 has compiled its hot paths. */
const WARM_UP_SECONDS = Number(process.env.BENCH_WARM_UP_SECONDS ?? 10);
/**
 * The single-transaction load is offered at the same rate to every server (an open load), below what
 * either saturates at: a closed load (each connection sends as soon as it is answered) drives the bare app
 * to a whole core while the gateway, waiting on Pub/Sub, sits at a part of one, and a saturated process
 * spends less CPU per request (fewer wake-ups, bigger batches of I/O), which flatters the yardstick.
 * BENCH_SINGLE_RATE=0 measures the closed load instead.
 */
export const SINGLE_RATE = Number(process.env.BENCH_SINGLE_RATE ?? 1_500);
/** How many times each server is measured, the servers taking turns; the median round is reported. */
export const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));

export interface HttpPair {
  single: HttpFigures;
  bulk: HttpFigures;
}

/** A pair of figures reported as the median round of each load, with every round kept beside it. */
export interface MeasuredPair extends HttpPair {
  rounds: HttpPair[];
}

/** An HTTP server under the bench's loads, started once and measured in every round. */
export interface ServerUnderLoad {
  name: string;
  pid: number;
  url: string;
  headers?: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * The two measured loads every HTTP server gets: single transactions on 50 connections, bulks of 100 on
 * 10; each server first gets both loads unmeasured for WARM_UP_SECONDS, the same for all.
 */
async function singleAndBulk(server: ServerUnderLoad, seconds: number): Promise<HttpPair> {
  const options = { pid: server.pid, url: server.url, headers: server.headers, seconds };
  const single = await measuredLoad({
    ...options,
    body: singleBody,
    transactionsPerRequest: 1,
    connections: Number(process.env.BENCH_CONNECTIONS ?? 50),
    overallRate: SINGLE_RATE > 0 ? SINGLE_RATE : undefined,
  });
  const bulk = await measuredLoad({
    ...options,
    body: bulkBody,
    transactionsPerRequest: BULK_SIZE,
    connections: Number(process.env.BENCH_BULK_CONNECTIONS ?? 10),
  });
  return { single, bulk };
}

const median = (rounds: HttpFigures[], figure: (f: HttpFigures) => number): HttpFigures => {
  const sorted = [...rounds].sort((a, b) => figure(a) - figure(b));
  return sorted[Math.floor((sorted.length - 1) / 2)] as HttpFigures;
};

/**
 * Every server warmed up once, then measured ROUNDS times, taking turns, so that drift in the machine's
 * state over the run (the emulator's JIT, other work on the two cores) falls on each of them alike. Each
 * load reports its median round by CPU time; all rounds are kept.
 */
export async function measureInTurns(servers: ServerUnderLoad[], seconds: number): Promise<MeasuredPair[]> {
  for (const server of servers) {
    for (const body of [singleBody, bulkBody]) {
      await load({ url: server.url, body, headers: server.headers, connections: 10, durationSeconds: WARM_UP_SECONDS });
    }
  }
  const rounds: HttpPair[][] = servers.map(() => []);
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [index, server] of servers.entries()) {
      console.log(`round ${round}/${ROUNDS}: ${server.name}, ${seconds} s single, ${seconds} s bulk ...`);
      rounds[index]?.push(await singleAndBulk(server, seconds));
    }
  }
  return rounds.map((measured) => ({
    single: median(
      measured.map((pair) => pair.single),
      (f) => f.cpuUsPerRequest,
    ),
    bulk: median(
      measured.map((pair) => pair.bulk),
      (f) => f.cpuUsPerTransaction,
    ),
    rounds: measured,
  }));
}
