import { execFileSync, spawnSync } from "node:child_process";
import { availableParallelism } from "node:os";

/**
 * Where the bench's processes run (`taskset` from util-linux, Linux only). With two cores or more and
 * `BENCH_PIN` not 0, the measured server gets the last core to itself and everything else (this process
 * with its load generator, the emulators it starts, their JVMs) the others: a server's CPU per request
 * then no longer depends on which of its threads the kernel put beside the emulator or autocannon at
 * the time, and both servers get the same core under the same neighbours.
 */
export interface CpuPlan {
  /** The CPU list (taskset's `-c` form) of the measured servers, or undefined when nothing is pinned. */
  server?: string;
  /** The CPU list of this process and of every process it starts after `pinSelf`. */
  rest?: string;
}

const tasksetInstalled = () => !spawnSync("taskset", ["--version"], { stdio: "ignore" }).error;

export function cpuPlan(env: NodeJS.ProcessEnv = process.env, cores = availableParallelism()): CpuPlan {
  if (env.BENCH_PIN === "0" || cores < 2 || process.platform !== "linux" || !tasksetInstalled()) return {};
  const last = cores - 1;
  return { server: String(last), rest: last === 1 ? "0" : `0-${last - 1}` };
}

/** Every thread of `pid` moved to `cpus`; threads it starts later inherit the mask. */
export function pinProcess(pid: number, cpus: string): void {
  execFileSync("taskset", ["--all-tasks", "--cpu-list", "--pid", cpus, String(pid)], { stdio: "ignore" });
}
