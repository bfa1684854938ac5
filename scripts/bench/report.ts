import type { MedianDrain } from "./backlog.ts";
import { ROUNDS } from "./backlog-rounds.ts";
import type { CpuPlan } from "./cpu-affinity.ts";
import type { ReportLatency } from "./report-latency.ts";
import type { RoundRatios } from "./round-ratios.ts";
import type { LatencyFigures } from "./steps/accept-to-record.ts";
import type { FairTenantsFigures } from "./steps/fair-tenants.ts";
import type { GatewayFigures } from "./steps/gateway.ts";
import {
  HTTP_LIFETIMES,
  HTTP_ROUNDS,
  HTTP_SECONDS,
  type HttpPair,
  type MeasuredPair,
  SINGLE_RATE,
  SINGLE_TOGETHER,
} from "./steps/http-pair.ts";

export interface BenchResults {
  node: string;
  /** The machine's 1, 5 and 15 minute load averages before and after the run: context for every figure. */
  loadAverage: number[];
  loadAverageAfter?: number[];
  seconds: number;
  /** The CPUs the measured HTTP servers and everything else were pinned to (none when empty). */
  cpus?: CpuPlan;
  bare?: MeasuredPair;
  gateway?: GatewayFigures;
  /** The gateway's CPU per single request over the bare app's, per round: the figure the target is on. */
  singleRatio?: RoundRatios;
  minimal?: MedianDrain;
  worker?: { backlog: MedianDrain; acceptToRecord: LatencyFigures };
  /** A heavy tenant beside a light one: the light one's latency, the heavy one's answers, the RSS. */
  fairTenants?: FairTenantsFigures;
  /** Report latency lines for a month of data at 1,000,000 transactions. */
  reports?: ReportLatency;
}

const fmt = (n: number | undefined, digits = 0) =>
  n === undefined ? "" : n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
/** "1.23x": how many times the yardstick's figure ours is. */
const times = (ours: number | undefined, yardstick: number | undefined) =>
  ours === undefined || !yardstick ? "" : `${fmt(ours / yardstick, 2)}x`;

/** Non-2xx answers / errors over both loads. */
const failures = (pair: HttpPair) =>
  `${pair.single.non2xx + (pair.bulk?.non2xx ?? 0)} / ${pair.single.errors + (pair.bulk?.errors ?? 0)}`;

type Row = [label: string, ours: string, yardstick: string, note: string];

function rows(r: BenchResults): Row[] {
  const gw = r.gateway;
  const bare = r.bare;
  const worker = r.worker?.backlog;
  const minimal = r.minimal;
  const ratio = r.singleRatio;
  return [
    [
      "CPU us per single request",
      fmt(gw?.single.cpuUsPerRequest),
      fmt(bare?.single.cpuUsPerRequest),
      ratio
        ? `${fmt(ratio.median, 2)}x, median of the rounds' ratios (target <= 1.25x)`
        : times(gw?.single.cpuUsPerRequest, bare?.single.cpuUsPerRequest),
    ],
    [
      "single, rounds' ratios: spread",
      "",
      "",
      ratio
        ? `middle half ${fmt(ratio.q1, 2)}-${fmt(ratio.q3, 2)}x, all ${fmt(ratio.min, 2)}-${fmt(ratio.max, 2)}x` +
          (ratio.lifetimes && ratio.lifetimes.length > 1
            ? `; each start's median ${ratio.lifetimes.map((r) => `${fmt(r, 2)}x`).join(", ")}`
            : "")
        : "",
    ],
    [
      "CPU us per transaction, bulk 100",
      fmt(gw?.bulk?.cpuUsPerTransaction, 1),
      fmt(bare?.bulk?.cpuUsPerTransaction, 1),
      `${times(gw?.bulk?.cpuUsPerTransaction, bare?.bulk?.cpuUsPerTransaction)} (target <= 10 us)`,
    ],
    [
      "single, requests/s",
      fmt(gw?.single.requestsPerSecond),
      fmt(bare?.single.requestsPerSecond),
      SINGLE_RATE > 0 ? `${fmt(SINGLE_RATE)} offered to each` : "as fast as answered",
    ],
    ["single, share of a core", fmt(gw?.single.coreShare, 2), fmt(bare?.single.coreShare, 2), "1.00 = saturated"],
    [
      "single, p50 / p99 ms",
      `${fmt(gw?.single.p50Ms)} / ${fmt(gw?.single.p99Ms)}`,
      `${fmt(bare?.single.p50Ms)} / ${fmt(bare?.single.p99Ms)}`,
      "",
    ],
    ["bulk 100, transactions/s", fmt(gw?.bulk?.transactionsPerSecond), fmt(bare?.bulk?.transactionsPerSecond), ""],
    [
      "bulk 100, p50 / p99 ms",
      `${fmt(gw?.bulk?.p50Ms)} / ${fmt(gw?.bulk?.p99Ms)}`,
      `${fmt(bare?.bulk?.p50Ms)} / ${fmt(bare?.bulk?.p99Ms)}`,
      "",
    ],
    ["gateway peak RSS, MB", fmt(gw?.peakRssMb ?? undefined, 1), "", "(target <= 200 MB)"],
    ["non-2xx / errors", gw ? failures(gw) : "", bare ? failures(bare) : "", ""],
    [
      "worker CPU us per record",
      fmt(worker?.cpuUsPerRecord),
      fmt(minimal?.cpuUsPerRecord),
      `${times(worker?.cpuUsPerRecord, minimal?.cpuUsPerRecord)} (target <= 1.3x)`,
    ],
    [
      "backlog drained, records/s",
      fmt(worker?.recordsPerSecond, 1),
      fmt(minimal?.recordsPerSecond, 1),
      `${times(worker?.recordsPerSecond, minimal?.recordsPerSecond)} (target >= 0.8x); ${fmt(worker?.transactions ?? minimal?.transactions)} transactions`,
    ],
    [
      "202-to-record p50 / p99 ms",
      r.worker ? `${fmt(r.worker.acceptToRecord.p50Ms)} / ${fmt(r.worker.acceptToRecord.p99Ms)}` : "",
      "",
      r.worker ? `${r.worker.acceptToRecord.samples} requests, one every ~20 ms` : "",
    ],
  ];
}

/** Each round's CPU figures, bare app / gateway, so a median can be read against its spread. */
function roundsLine(r: BenchResults): string {
  const count = Math.max(r.bare?.rounds.length ?? 0, r.gateway?.rounds.length ?? 0);
  return Array.from({ length: count }, (_, i) => {
    const bare = r.bare?.rounds[i];
    const gw = r.gateway?.rounds[i];
    const ratio = r.singleRatio?.rounds[i];
    const single = `single ${fmt(bare?.single.cpuUsPerRequest)}/${fmt(gw?.single.cpuUsPerRequest)} us${ratio ? ` (${fmt(ratio, 2)}x)` : ""}`;
    // Bulk rounds run in the last start only: the others' rounds have none to show.
    const bulk =
      bare?.bulk || gw?.bulk
        ? `, bulk ${fmt(bare?.bulk?.cpuUsPerTransaction, 1)}/${fmt(gw?.bulk?.cpuUsPerTransaction, 1)} us`
        : "";
    return single + bulk;
  }).join("; ");
}

function drainRoundsLine(r: BenchResults): string {
  const count = Math.max(r.minimal?.rounds.length ?? 0, r.worker?.backlog.rounds.length ?? 0);
  return Array.from({ length: count }, (_, i) => {
    const minimal = r.minimal?.rounds[i];
    const worker = r.worker?.backlog.rounds[i];
    return `${fmt(minimal?.cpuUsPerRecord)}/${fmt(worker?.cpuUsPerRecord)} us, ${fmt(minimal?.recordsPerSecond, 1)}/${fmt(worker?.recordsPerSecond, 1)} records/s`;
  }).join("; ");
}

const pinning = (cpus: CpuPlan | undefined) =>
  cpus?.server
    ? `each server pinned to CPU ${cpus.server}, the load generator and the emulators to CPU ${cpus.rest}`
    : "nothing pinned";

/** The figures side by side: ours, the yardstick's (bare Express for the gateway, minimal handler for the worker). */
export function printReport(results: BenchResults): void {
  const widths = [34, 16, 16];
  const line = ([label, ours, yardstick, note]: Row) =>
    `${label.padEnd(widths[0] ?? 0)}${ours.padStart(widths[1] ?? 0)}${yardstick.padStart(widths[2] ?? 0)}  ${note}`;
  console.log(`\n${line(["measure", "ours", "yardstick", "ratio / note"])}`);
  for (const row of rows(results)) console.log(line(row));
  console.log(
    `\nYardstick: a bare Express 5 app for the gateway rows, a minimal push handler for the worker rows. CPU is each` +
      ` process's own (/proc/<pid>/stat). ${HTTP_SECONDS} s per load; single on 50 connections (${SINGLE_RATE > 0 ? `${SINGLE_RATE} requests/s offered to both` : "closed load"}), bulk on 10; gateway rows are` +
      ` the median of ${HTTP_ROUNDS} rounds in each of ${HTTP_LIFETIMES} starts of both servers (bulk: the last start), the bulk in` +
      ` turns of alternating order, the single ${SINGLE_TOGETHER ? "loads together" : "loads in turns"}, the single ratio the median of` +
      ` each round's own (every round, bare/gateway: ${roundsLine(results)}); ${pinning(results.cpus)}; worker rows are` +
      ` each figure's median of ${ROUNDS} backlogs, the handlers taking turns (every round, minimal/worker:` +
      ` ${drainRoundsLine(results)}). Node ${results.node};` +
      ` load average ${results.loadAverage.map((n) => n.toFixed(1)).join(" ")} before, ` +
      `${(results.loadAverageAfter ?? []).map((n) => n.toFixed(1)).join(" ")} after.`,
  );
}
