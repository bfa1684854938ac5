import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

/** Clock ticks per second, the unit of /proc/<pid>/stat's CPU times (100 on almost every Linux). */
const ticksPerSecond = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** A process's own CPU time so far (user + system, children excluded), in microseconds; Linux only. */
export function cpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The command name may hold spaces or parentheses: count fields from the last ")".
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return ((utime + stime) * 1e6) / ticksPerSecond;
}

/** Runs `work` and returns its result with the CPU the process `pid` spent meanwhile, in microseconds. */
export async function withCpu<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; cpuMicros: number }> {
  const before = cpuMicros(pid);
  const result = await work();
  return { result, cpuMicros: cpuMicros(pid) - before };
}
