import http, { type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A stand-in for BigQuery's REST API as the reconciliation's Gemini reader calls it (BigQuery is not
 * reachable from the tests): jobs.query (`POST /bigquery/v2/projects/{project}/queries`, answering a
 * QueryResponse) and jobs.getQueryResults (`GET .../queries/{jobId}`, a GetQueryResultsResponse), with
 * `schema`, `rows` as `{ f: [{ v }] }`, `totalRows`, `pageToken` and `jobComplete`
 * (cloud.google.com/bigquery/docs/reference/rest/v2/jobs/query and .../jobs/getQueryResults, read
 * 2026-11-29), and the error shape `{ error: { code, message, errors: [{ reason }] } }` with reason
 * `rateLimitExceeded` for a 429.
 *
 * The rows it serves are the query's result rows, which the test sets per UTC day (as the billing export
 * would sum them; a test may change a day between runs: a restated day). It keeps the days the query's
 * `@from` and `@to` parameters cover, answers `jobComplete: false` to the first `pendingPolls` reads, a few
 * rows a page, 429 to the next `throttle` requests, and records every request.
 */
export interface ResultRow {
  day: string;
  service: string;
  sku: string;
  unit: string;
  currency: string;
  usage_amount: string;
  cost: string;
}

export interface BigQueryStandInState {
  days: Record<string, ResultRow[]>;
  throttle: number;
  pendingPolls: number;
  pageSize: number;
  /** The HTTP status every request gets instead (a refused credential, a missing table). */
  failWith?: { code: number; reason: string; message: string };
  requests: Array<{
    method: string;
    path: string;
    query: URLSearchParams;
    headers: IncomingHttpHeaders;
    body: unknown;
  }>;
}

const FIELDS = ["day", "service", "sku", "unit", "currency", "usage_amount", "cost"] as const;
const SCHEMA = { fields: FIELDS.map((name) => ({ name, type: "STRING", mode: "NULLABLE" })) };

interface Job {
  rows: ResultRow[];
}

export interface BigQueryStandIn {
  endpoint: string;
  state: BigQueryStandInState;
  close(): Promise<void>;
}

function parameter(
  body: { queryParameters?: Array<{ name: string; parameterValue?: { value?: string } }> },
  name: string,
) {
  return body.queryParameters?.find((p) => p.name === name)?.parameterValue?.value;
}

export async function bigQueryStandIn(): Promise<BigQueryStandIn> {
  const state: BigQueryStandInState = { days: {}, throttle: 0, pendingPolls: 0, pageSize: 2, requests: [] };
  const jobs = new Map<string, Job>();
  const send = (res: http.ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { "content-type": "application/json; charset=UTF-8" }).end(JSON.stringify(body));
  const error = (res: http.ServerResponse, code: number, reason: string, message: string) =>
    send(res, code, { error: { code, message, errors: [{ message, domain: "global", reason }], status: reason } });
  const page = (projectId: string, jobId: string, kind: string, offset: number) => {
    const job = jobs.get(jobId) as Job;
    if (state.pendingPolls > 0) {
      state.pendingPolls--;
      return { kind, jobReference: { projectId, jobId, location: "US" }, jobComplete: false };
    }
    const rows = job.rows.slice(offset, offset + state.pageSize);
    const next = offset + rows.length;
    return {
      kind,
      schema: SCHEMA,
      jobReference: { projectId, jobId, location: "US" },
      totalRows: String(job.rows.length),
      ...(next < job.rows.length ? { pageToken: `offset-${next}` } : {}),
      rows: rows.map((row) => ({ f: FIELDS.map((field) => ({ v: row[field] })) })),
      jobComplete: true,
      cacheHit: false,
    };
  };
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://stand-in");
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    const body = text ? (JSON.parse(text) as unknown) : null;
    state.requests.push({
      method: req.method ?? "",
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body,
    });
    if (state.failWith) {
      error(res, state.failWith.code, state.failWith.reason, state.failWith.message);
      return;
    }
    if (state.throttle > 0) {
      state.throttle--;
      error(res, 429, "rateLimitExceeded", "Exceeded rate limits: too many concurrent queries for this project.");
      return;
    }
    const query = /^\/bigquery\/v2\/projects\/([^/]+)\/queries$/.exec(url.pathname);
    if (query && req.method === "POST") {
      const request = body as Parameters<typeof parameter>[0];
      const from = Date.parse(parameter(request, "from") ?? "");
      const to = Date.parse(parameter(request, "to") ?? "");
      const rows = Object.entries(state.days)
        .filter(([day]) => Date.parse(`${day}T00:00:00Z`) >= from && Date.parse(`${day}T00:00:00Z`) < to)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .flatMap(([, dayRows]) => dayRows);
      const jobId = `job_${jobs.size + 1}`;
      jobs.set(jobId, { rows });
      send(res, 200, page(query[1] as string, jobId, "bigquery#queryResponse", 0));
      return;
    }
    const results = /^\/bigquery\/v2\/projects\/([^/]+)\/queries\/([^/]+)$/.exec(url.pathname);
    if (results && req.method === "GET" && jobs.has(results[2] as string)) {
      const token = url.searchParams.get("pageToken");
      const offset = token ? Number(token.replace("offset-", "")) : 0;
      send(res, 200, page(results[1] as string, results[2] as string, "bigquery#getQueryResultsResponse", offset));
      return;
    }
    error(res, 404, "notFound", `Not found: ${url.pathname}`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    state,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
