import { BULK_SIZE, bulkBody, singleBody } from "../context.ts";
import { type HttpFigures, measuredLoad } from "../http-load.ts";

export interface HttpPair {
  single: HttpFigures;
  bulk: HttpFigures;
}

/** The two measured loads every HTTP server gets: single transactions on 50 connections, bulks of 100 on 10. */
export async function singleAndBulk(options: {
  pid: number;
  url: string;
  seconds: number;
  headers?: Record<string, string>;
}): Promise<HttpPair> {
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
