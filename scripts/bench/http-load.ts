import { load } from "./load.ts";
import { withCpu } from "./process-cpu.ts";

export interface HttpFigures {
  requestsPerSecond: number;
  transactionsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
  /** The server process's own CPU time over the load, per request and per transaction. */
  cpuUsPerRequest: number;
  cpuUsPerTransaction: number;
  /** The share of one core the server used over the load (1 = a whole core): whether it was saturated. */
  coreShare: number;
}

/** A fixed load against one server process, with that process's own CPU time read around it. */
export async function measuredLoad(options: {
  pid: number;
  url: string;
  body: string;
  transactionsPerRequest: number;
  connections: number;
  seconds: number;
  headers?: Record<string, string>;
  overallRate?: number;
}): Promise<HttpFigures> {
  const { result, cpuMicros } = await withCpu(options.pid, () =>
    load({
      url: options.url,
      body: options.body,
      headers: options.headers,
      connections: options.connections,
      durationSeconds: options.seconds,
      overallRate: options.overallRate,
    }),
  );
  const requests = Math.max(1, result.total);
  return {
    requestsPerSecond: result.requestsPerSecond,
    transactionsPerSecond: result.requestsPerSecond * options.transactionsPerRequest,
    p50Ms: result.p50,
    p99Ms: result.p99,
    requests: result.total,
    non2xx: result.non2xx,
    errors: result.errors,
    cpuUsPerRequest: cpuMicros / requests,
    cpuUsPerTransaction: cpuMicros / (requests * options.transactionsPerRequest),
    coreShare: cpuMicros / (options.seconds * 1e6),
  };
}
