import http, { type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Stand-ins for the vendors' report APIs, which are not reachable from the tests: each serves the page
 * shapes of the vendor's own API reference from per-day results the test sets (and may change between
 * runs: a restated day), a few daily buckets a page however large a `limit` is asked (so paging is
 * exercised), answers 429 with `retry-after` when told to, and records every request it got.
 *
 * OpenAI: platform.openai.com/docs/api-reference/usage (the Usage API's completions and the Costs API),
 * read 2026-11-29. Anthropic: platform.claude.com/docs/en/api/admin/usage_report and
 * platform.claude.com/docs/en/api/admin/cost_report, read 2026-11-29.
 */
export type DayResults = Record<string, unknown[]>;

export interface StandInState {
  /** Per path, the results of each UTC day (`YYYY-MM-DD`); a day absent has no bucket, `[]` an empty one. */
  days: Record<string, DayResults>;
  /** Answers 429 with this `retry-after` to the next `throttle` requests. */
  throttle: number;
  retryAfter: string;
  /** Days served as buckets per page. */
  pageSize: number;
  /** A partial bucket of today (its end after now), as the vendors serve the day in progress. */
  today?: { day: string; results: Record<string, unknown[]> };
  requests: Array<{ path: string; query: URLSearchParams; headers: IncomingHttpHeaders }>;
}

type Shape = "openai" | "anthropic";
const DAY_MS = 86_400_000;

function bucket(shape: Shape, startMs: number, results: unknown[]) {
  if (shape === "openai") {
    return { object: "bucket", start_time: startMs / 1000, end_time: startMs / 1000 + 86_400, results };
  }
  return {
    starting_at: new Date(startMs).toISOString().replace(".000Z", "Z"),
    ending_at: new Date(startMs + DAY_MS).toISOString().replace(".000Z", "Z"),
    results,
  };
}

function range(shape: Shape, query: URLSearchParams): { from: number; to: number } {
  if (shape === "openai") {
    return { from: Number(query.get("start_time")) * 1000, to: Number(query.get("end_time")) * 1000 };
  }
  return { from: Date.parse(query.get("starting_at") ?? ""), to: Date.parse(query.get("ending_at") ?? "") };
}

export interface VendorStandIn {
  baseUrl: string;
  state: StandInState;
  close(): Promise<void>;
}

export async function vendorStandIn(shape: Shape, paths: string[]): Promise<VendorStandIn> {
  const state: StandInState = {
    days: Object.fromEntries(paths.map((path) => [path, {}])),
    throttle: 0,
    retryAfter: "1",
    pageSize: 2,
    requests: [],
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://stand-in");
    state.requests.push({ path: url.pathname, query: url.searchParams, headers: req.headers });
    const days = state.days[url.pathname];
    if (!days) {
      res.writeHead(404, { "content-type": "application/json" }).end('{"error":{"message":"not found"}}');
      return;
    }
    if (state.throttle > 0) {
      state.throttle--;
      res.writeHead(429, { "content-type": "application/json", "retry-after": state.retryAfter });
      res.end('{"error":{"type":"rate_limit_error","message":"Rate limited"}}');
      return;
    }
    const { from, to } = range(shape, url.searchParams);
    const start = url.searchParams.get("page") ? Number(url.searchParams.get("page")) : from;
    const data: unknown[] = [];
    let at = start;
    for (let served = 0; at < to && served < state.pageSize; at += DAY_MS, served++) {
      const day = new Date(at).toISOString().slice(0, 10);
      const today = state.today?.day === day ? state.today.results[url.pathname] : undefined;
      const results = today ?? days[day];
      if (today) {
        // The day in progress: a bucket from its midnight to now, not a whole day.
        const partial = bucket(shape, at, results as unknown[]) as Record<string, unknown>;
        if (shape === "openai") partial.end_time = Math.floor(Date.now() / 1000);
        else partial.ending_at = new Date().toISOString();
        data.push(partial);
      } else if (results) data.push(bucket(shape, at, results));
    }
    const hasMore = at < to;
    const page = {
      ...(shape === "openai" ? { object: "page" } : {}),
      data,
      has_more: hasMore,
      next_page: hasMore ? String(at) : null,
    };
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(page));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    state,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export const OPENAI_PATHS = ["/v1/organization/usage/completions", "/v1/organization/costs"];
export const ANTHROPIC_PATHS = ["/v1/organizations/usage_report/messages", "/v1/organizations/cost_report"];
