import { BULK_SIZE, bulkBody, singleBody } from "../context.ts";
import { type HttpFigures, measuredLoad } from "../http-load.ts";
import { load } from "../load.ts";

/** Seconds of each load every server gets before it is measured, so that V8 has compiled its hot paths. */
const WARM_UP_SECONDS = Number(process.env.BENCH_WARM_UP_SECONDS ?? 3);

export interface HttpPair {
  single: HttpFigures;
  bulk: HttpFigures;
}

/**
 * The two measured loads every HTTP server gets: single transactions on 50 connections, bulks of 100 on
 * 10; each server first gets both loads unmeasured for WARM_UP_SECONDS, the same for all.
 */
export async function singleAndBulk(options: {
  pid: number;
  url: string;
  seconds: number;
  headers?: Record<string, string>;
}): Promise<HttpPair> {
  for (const body of [singleBody, bulkBody]) {
    await load({ url: options.url, body, headers: options.headers, connections: 10, durationSeconds: WARM_UP_SECONDS });
  }
  const single = await measuredLoad({
    ...options,
    body: singleBody,
    transactionsPerRequest: 1,
    connections: Number(process.env.BENCH_CONNECTIONS ?? 50),
  });
  const bulk = await measuredLoad({
    ...options,
    body: bulkBody,
    transactionsPerRequest: BULK_SIZE,
    connections: Number(process.env.BENCH_BULK_CONNECTIONS ?? 10),
  });
  return { single, bulk };
}
