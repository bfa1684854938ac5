import type { ReportSource } from "@usage-ingestion/reports";

export const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)] ?? 0;

/** The source, counting the documents each report reads. */
export function counting(source: ReportSource) {
  const count = { documents: 0 };
  const wrapped = Object.fromEntries(
    Object.entries(source).map(([name, read]) => [
      name,
      name === "declaredDimensions"
        ? read
        : async function* (...args: unknown[]) {
            for await (const page of (read as (...a: unknown[]) => AsyncIterable<unknown[]>)(...args)) {
              count.documents += page.length;
              yield page;
            }
          },
    ]),
  ) as unknown as ReportSource;
  return { count, source: wrapped };
}

/** One timed report: its query, and its latency, CPU time and documents over the runs. */
export interface ReportCase {
  label: string;
  query: string;
  p50Ms: number;
  p95Ms: number;
  cpuP50Ms: number;
  documents: number;
  groups: number;
  transactions: number;
}

/**
 * Times `GET /usage/costs?{query}` on the app at `baseUrl` `runs` times, with this process's CPU time (the
 * app runs in it) and the documents the counting source saw; any answer but 200 stops the bench.
 */
export async function timeReport(
  target: { baseUrl: string; key: string; count: { documents: number }; runs: number },
  label: string,
  query: string,
): Promise<ReportCase> {
  const runs: number[] = [];
  const cpu: number[] = [];
  let body: { totals?: { transactions: number }; groups?: unknown[]; error?: string } = {};
  let documents = 0;
  for (let i = 0; i < target.runs; i++) {
    target.count.documents = 0;
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const response = await fetch(`${target.baseUrl}/usage/costs?${query}`, { headers: { "x-api-key": target.key } });
    body = (await response.json()) as typeof body;
    runs.push(performance.now() - started);
    const used = process.cpuUsage(cpuBefore);
    cpu.push((used.user + used.system) / 1000);
    documents = target.count.documents;
    if (response.status !== 200) throw new Error(`${query}: ${response.status} ${JSON.stringify(body)}`);
  }
  return {
    label,
    query,
    p50Ms: percentile(runs, 50),
    p95Ms: percentile(runs, 95),
    cpuP50Ms: percentile(cpu, 50),
    documents,
    groups: body.groups?.length ?? 0,
    transactions: body.totals?.transactions ?? 0,
  };
}

/** A case as one printed line. */
export const caseLine = (c: ReportCase) =>
  `${c.label.padEnd(44)} p50 ${c.p50Ms.toFixed(0).padStart(6)} ms  p95 ${c.p95Ms.toFixed(0).padStart(6)} ms  CPU ${c.cpuP50Ms.toFixed(0).padStart(5)} ms  ${String(c.documents).padStart(4)} documents  (${c.groups} groups, ${c.transactions.toLocaleString("en-US")} transactions)`;
