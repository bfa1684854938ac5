import { type ChildProcess, spawn } from "node:child_process";
import { openSync } from "node:fs";
import { createServer, type Socket } from "node:net";
import { fileURLToPath } from "node:url";

/** A port the OS had free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

export interface GroupProcess {
  child: ChildProcess;
  /** Last lines written, for error messages. */
  output(): string;
  stop(): Promise<void>;
}

let guard: ChildProcess | undefined;
/**
 * The orphan guard (orphan-guard.mjs) of this process, started with the first group: it stops the groups
 * still registered once this process is gone, even when it was killed with SIGKILL.
 */
function guardGroup(pid: number, started: boolean) {
  if (!guard) {
    guard = spawn(process.execPath, [fileURLToPath(new URL("./orphan-guard.mjs", import.meta.url))], {
      detached: true,
      stdio: ["pipe", "ignore", "inherit"],
    });
    guard.unref();
    (guard.stdin as Socket).unref();
    guard.stdin?.on("error", () => {});
  }
  guard.stdin?.write(`${started ? "+" : "-"}${pid}\n`);
}

/**
 * Starts a command as the leader of its own process group, so that stopping it also stops whatever it
 * started (the emulators' `gcloud` wrapper leaves a Java child behind otherwise). The group is stopped
 * by the orphan guard if this process dies without stopping it.
 */
export function spawnGroup(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; onLine?: (line: string) => void; logFile?: string } = {},
): GroupProcess {
  // A log file keeps a chatty child's output off this process (the benchmark's load generator lives here).
  const output = options.logFile ? openSync(options.logFile, "a") : "pipe";
  const child = spawn(command, args, {
    detached: true,
    stdio: ["ignore", output, output],
    env: options.env ?? process.env,
    cwd: options.cwd,
  });
  if (child.pid !== undefined) guardGroup(child.pid, true);
  const tail: string[] = [];
  const collect = (chunk: Buffer) => {
    for (const line of chunk.toString("utf8").split("\n")) {
      if (!line) continue;
      tail.push(line);
      if (tail.length > 40) tail.shift();
      options.onLine?.(line);
    }
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", () => resolve());
  });
  return {
    child,
    output: () => tail.join("\n"),
    async stop() {
      if (child.pid === undefined) return;
      signalGroup(child.pid, "SIGTERM");
      const timedOut = await Promise.race([exited.then(() => false), delay(5_000).then(() => true)]);
      // The leader may be gone while its children linger: the group is signalled either way.
      signalGroup(child.pid, timedOut ? "SIGKILL" : "SIGTERM");
      await waitForGroupExit(child.pid);
      guardGroup(child.pid, false);
    },
  };
}

function signalGroup(pid: number, signal: NodeJS.Signals) {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}

async function waitForGroupExit(pid: number) {
  for (let i = 0; i < 50; i++) {
    try {
      process.kill(-pid, 0);
    } catch {
      return;
    }
    await delay(100);
  }
  signalGroup(pid, "SIGKILL");
}

export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls until `probe` resolves true, or fails with `describe()` after `timeoutMs`. */
export async function waitFor(
  probe: () => Promise<boolean>,
  timeoutMs: number,
  describe: () => string,
  stopEarly?: () => boolean,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe().catch(() => false)) return;
    if (stopEarly?.()) break;
    await delay(100);
  }
  throw new Error(describe());
}

export async function httpOk(url: string): Promise<boolean> {
  const response = await fetch(url, { signal: AbortSignal.timeout(1_000) });
  return response.ok;
}
