import autocannon from "autocannon";

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  total: number;
}

/** A bounded load from this process against a server on loopback: fixed connections, fixed seconds. */
export async function load(options: {
  url: string;
  body: string;
  headers?: Record<string, string>;
  connections: number;
  durationSeconds: number;
  /** Requests a second offered over all connections (an open load); absent, as fast as answers come. */
  overallRate?: number;
  /** A fresh body per request, where each must differ (unique Pub/Sub message ids). */
  nextBody?: () => string;
}): Promise<LoadResult> {
  const nextBody = options.nextBody;
  const result = await autocannon({
    url: options.url,
    method: "POST",
    connections: options.connections,
    duration: options.durationSeconds,
    ...(options.overallRate ? { overallRate: options.overallRate } : {}),
    headers: { "content-type": "application/json", ...options.headers },
    body: options.body,
    ...(nextBody ? { requests: [{ setupRequest: (request) => ({ ...request, body: nextBody() }) }] } : {}),
  });
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    total: result.requests.total,
  };
}
