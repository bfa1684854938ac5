import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../lib/processes.ts";
import { startGatewayProcess } from "../lib/services.ts";
import { SERVICE_NODE_OPTIONS, serviceNodeFlags } from "./context.ts";
import { peakRssMb } from "./rss.ts";

/** Reports sent at once: the six worst-case reports (BENCH_REPORT_MEMORY_AT_ONCE). */
const AT_ONCE = Number(process.env.BENCH_REPORT_MEMORY_AT_ONCE ?? 6);

export interface ReportMemory {
  query: string;
  /** Each report's status (0: no answer, the connection failed) and time, in the order they were sent. */
  answers: Array<{ status: number; code?: string; ms: number }>;
  ok: number;
  tooLarge: number;
  other: number;
  /** The gateway's resident set: after start-up, and its peak (VmHWM) over the reports. */
  startRssMb: number | null;
  peakRssMb: number | null;
  /** Whether the gateway was still running after the reports. */
  survived: boolean;
}

const rssMb = (pid: number): number | null => {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
};

/** How long a dead gateway's exit may take to be seen once its connections have failed. */
const EXIT_GRACE_MS = 2_000;

/**
 * The built gateway as its own process, as the reports service is deployed (`GATEWAY_ROLE=reports`, the
 * deployed heap flags), answering six worst-case `GET /usage/costs` at once: read keys spread so the
 * per-key bound (4 at once) refuses none, the query the largest range and grouping the data allows. Its
 * peak resident set is read from /proc (VmHWM, the kernel's own high-water mark).
 */
export async function reportMemory(env: Record<string, string>, keys: string[], query: string): Promise<ReportMemory> {
  const port = await freePort();
  const service = await startGatewayProcess({
    port,
    env: { ...env, GATEWAY_ROLE: "reports", NODE_OPTIONS: SERVICE_NODE_OPTIONS },
    built: true,
    nodeFlags: serviceNodeFlags(),
    logFile: join(tmpdir(), `usage-bench-report-memory-${port}.log`),
  });
  try {
    const pid = service.child.pid ?? 0;
    const startRssMb = rssMb(pid);
    let exited = false;
    const exit = new Promise<void>((resolve) => service.child.once("exit", () => resolve()));
    void exit.then(() => {
      exited = true;
    });
    // The high-water mark read as the reports run: a gateway that dies takes its /proc entry with it.
    let peak: number | null = null;
    const sample = () => {
      const now = peakRssMb(pid);
      if (now !== undefined) peak = Math.max(peak ?? 0, now);
    };
    const sampler = setInterval(sample, 20);
    const report = async (key: string) => {
      const started = performance.now();
      try {
        const response = await fetch(`http://127.0.0.1:${port}/usage/costs?${query}`, {
          headers: { "x-api-key": key },
          signal: AbortSignal.timeout(120_000),
        });
        const body = (await response.json()) as { error?: { code: string } };
        return { status: response.status, code: body.error?.code, ms: Math.round(performance.now() - started) };
      } catch {
        return { status: 0, ms: Math.round(performance.now() - started) };
      }
    };
    const answers = await Promise.all(
      Array.from({ length: AT_ONCE }, (_, i) => report(keys[i % keys.length] as string)),
    );
    sample();
    clearInterval(sampler);
    if (answers.some((answer) => answer.status === 0))
      await Promise.race([exit, new Promise((resolve) => setTimeout(resolve, EXIT_GRACE_MS))]);
    const ok = answers.filter((answer) => answer.status === 200).length;
    const tooLarge = answers.filter((answer) => answer.code === "report_too_large").length;
    return {
      query,
      answers,
      ok,
      tooLarge,
      other: answers.length - ok - tooLarge,
      startRssMb,
      peakRssMb: peak,
      survived: !exited,
    };
  } finally {
    await service.stop();
  }
}
