import { BULK_SIZE, bulkBody, singleBody } from "../context.ts";
import { type HttpFigures, measuredLoad } from "../http-load.ts";
import { load } from "../load.ts";

/** Seconds of the bulk load every server gets before it is measured, so that V8 has compiled its hot paths. */
const WARM_UP_SECONDS = Number(process.env.BENCH_WARM_UP_SECONDS ?? 10);
/**
 * Seconds of the single load, as it is measured, before the first round: with 10 s of a closed load the
 * gateway's first rounds cost 1.5-2.7x the later ones, and with 10 s of the measured load its CPU per
 * request still fell by a fifth over the first 15-20 s of rounds (its heap growing to its working size).
 */
const SINGLE_WARM_UP_SECONDS = Number(process.env.BENCH_SINGLE_WARM_UP_SECONDS ?? 30);
/**
 * The single-transaction load is offered at the same rate to every server (an open load), below what
 * either saturates at: a closed load (each connection sends as soon as it is answered) drives the bare app
 * to a whole core while the gateway, waiting on Pub/Sub, sits at a part of one, and a saturated process
 * spends less CPU per request (fewer wake-ups, bigger batches of I/O), which flatters the yardstick.
 * BENCH_SINGLE_RATE=0 measures the closed load instead.
 */
export const SINGLE_RATE = Number(process.env.BENCH_SINGLE_RATE ?? 1_500);
/**
 * How many times each HTTP server is measured, the servers taking turns (BENCH_HTTP_ROUNDS): many short
 * rounds rather than a few long ones, so that each ratio compares two loads a few seconds apart.
 */
export const HTTP_ROUNDS = Math.max(1, Number(process.env.BENCH_HTTP_ROUNDS ?? 8));
/**
 * How many times both servers are started afresh and measured (BENCH_HTTP_LIFETIMES), the bulk rounds in
 * the last only. Runs of the same code read 1.28x-1.59x though each run's rounds held within a tenth of
 * each other: what differs is each process's life (its JIT's choices, its heap), not the moment.
 */
export const HTTP_LIFETIMES = Math.max(1, Number(process.env.BENCH_HTTP_LIFETIMES ?? 3));
/** Seconds of each measured HTTP load in a round (BENCH_HTTP_SECONDS). */
export const HTTP_SECONDS = Math.max(1, Number(process.env.BENCH_HTTP_SECONDS ?? 5));

/** BENCH_BULK=0 leaves the bulk load out of the rounds (e.g. for a profile of single requests alone). */
const BULK_MEASURED = process.env.BENCH_BULK !== "0";
/**
 * The servers' single loads run at the same time in each round (BENCH_SINGLE_TOGETHER=0: one after the
 * other): whatever else the machine does during a round then falls on both at once.
 */
export const SINGLE_TOGETHER = process.env.BENCH_SINGLE_TOGETHER !== "0";

export interface HttpPair {
  single: HttpFigures;
  bulk?: HttpFigures;
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

/** Single transactions on 50 connections, offered at SINGLE_RATE. */
const singleLoad = (server: ServerUnderLoad, seconds: number) =>
  measuredLoad({
    pid: server.pid,
    url: server.url,
    headers: server.headers,
    seconds,
    body: singleBody,
    transactionsPerRequest: 1,
    connections: Number(process.env.BENCH_CONNECTIONS ?? 50),
    overallRate: SINGLE_RATE > 0 ? SINGLE_RATE : undefined,
  });

/** Bulks of 100 on 10 connections, as fast as answered. */
const bulkLoad = (server: ServerUnderLoad, seconds: number) =>
  measuredLoad({
    pid: server.pid,
    url: server.url,
    headers: server.headers,
    seconds,
    body: bulkBody,
    transactionsPerRequest: BULK_SIZE,
    connections: Number(process.env.BENCH_BULK_CONNECTIONS ?? 10),
  });

const median = (rounds: HttpFigures[], figure: (f: HttpFigures) => number): HttpFigures | undefined => {
  const sorted = [...rounds].sort((a, b) => figure(a) - figure(b));
  return sorted[Math.floor((sorted.length - 1) / 2)];
};

/** The servers' order in a round: as given in odd rounds, reversed in even ones (A B, B A, A B, ...). */
export const turnOrder = <T>(servers: T[], round: number): T[] => (round % 2 === 1 ? servers : [...servers].reverse());

/**
 * The single load of one round: every server at once (SINGLE_TOGETHER), each with its own load at the
 * same offered rate, or one after the other in the round's turn order.
 */
async function singleRound(
  servers: ServerUnderLoad[],
  round: number,
  seconds: number,
  quiet = false,
): Promise<HttpFigures[]> {
  if (SINGLE_TOGETHER) {
    if (!quiet) console.log(`round ${round}/${HTTP_ROUNDS}: ${seconds} s single, every server at once ...`);
    return Promise.all(servers.map((server) => singleLoad(server, seconds)));
  }
  const figures = new Map<ServerUnderLoad, HttpFigures>();
  for (const server of turnOrder(servers, round)) {
    if (!quiet) console.log(`round ${round}/${HTTP_ROUNDS}: ${server.name}, ${seconds} s single ...`);
    figures.set(server, await singleLoad(server, seconds));
  }
  return servers.map((server) => figures.get(server) as HttpFigures);
}

/**
 * Every server measured HTTP_ROUNDS times on each load, after an unmeasured warm-up of that load (the same
 * for all): first every round of single transactions, as singleRound says, then every round of bulks
 * (closed, so one server at a time) in turns whose order alternates from round to round, so that drift in
 * the machine's state over the run (the emulator's JIT, other work on the cores) falls on each alike and
 * neither is always measured first. The single rounds come first, one after the other, so that none
 * follows a bulk load (which leaves the heap and the emulator in another state). Each load reports its
 * median round by CPU time; all rounds are kept, in round order.
 */
export async function measureInTurns(
  servers: ServerUnderLoad[],
  options: { bulk?: boolean; seconds?: number } = {},
): Promise<HttpPair[][]> {
  const seconds = options.seconds ?? HTTP_SECONDS;
  console.log(`warm-up: ${SINGLE_WARM_UP_SECONDS} s single, unmeasured ...`);
  await singleRound(servers, 0, SINGLE_WARM_UP_SECONDS, true);
  const singles: HttpFigures[][] = [];
  for (let round = 1; round <= HTTP_ROUNDS; round++) singles.push(await singleRound(servers, round, seconds));
  const bulks: Array<Map<ServerUnderLoad, HttpFigures>> = [];
  if (options.bulk ?? BULK_MEASURED) {
    console.log(`warm-up: ${WARM_UP_SECONDS} s bulk per server, unmeasured ...`);
    for (const server of servers) {
      await load({
        url: server.url,
        body: bulkBody,
        headers: server.headers,
        connections: 10,
        durationSeconds: WARM_UP_SECONDS,
      });
    }
    for (let round = 1; round <= HTTP_ROUNDS; round++) {
      const figures = new Map<ServerUnderLoad, HttpFigures>();
      for (const server of turnOrder(servers, round)) {
        console.log(`round ${round}/${HTTP_ROUNDS}: ${server.name}, ${seconds} s bulk ...`);
        figures.set(server, await bulkLoad(server, seconds));
      }
      bulks.push(figures);
    }
  }
  return servers.map((server, index) =>
    singles.map((single, round) => {
      const bulk = bulks[round]?.get(server);
      return { single: single[index] as HttpFigures, ...(bulk ? { bulk } : {}) };
    }),
  );
}

/** A server's rounds as the report gives them: the median round of each load, every round kept. */
export function summarize(rounds: HttpPair[]): MeasuredPair {
  const single = median(
    rounds.map((pair) => pair.single),
    (f) => f.cpuUsPerRequest,
  ) as HttpFigures;
  const bulk = median(
    rounds.flatMap((pair) => (pair.bulk ? [pair.bulk] : [])),
    (f) => f.cpuUsPerTransaction,
  );
  return { single, ...(bulk ? { bulk } : {}), rounds };
}
