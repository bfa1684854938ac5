import { readdirSync, readFileSync } from "node:fs";
import { spawnGroup, waitFor } from "../../scripts/lib/processes.ts";
import { REPO_ROOT } from "../../scripts/lib/services.ts";

/**
 * `npm start`'s program, started as a user would, on the given ports: with its own emulators, or on the
 * test run's emulators (the documented PUBSUB_EMULATOR_HOST / FIRESTORE_EMULATOR_HOST options); through
 * `npm start` itself or as the launcher alone.
 */
export function launch(options: { port: number; workerPort?: number; ownEmulators: boolean; viaNpm?: boolean }) {
  const lines: string[] = [];
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(options.port), STACK_QUIET: "1" };
  if (options.workerPort) env.WORKER_PORT = String(options.workerPort);
  // A project of its own either way: on the test run's emulators, its budget evaluation and webhook
  // dispatch (which read every organization) must not touch the other tests' organizations.
  env.GOOGLE_CLOUD_PROJECT = options.ownEmulators ? "demo-launcher" : "demo-launcher-shared";
  if (options.ownEmulators) {
    delete env.PUBSUB_EMULATOR_HOST;
    delete env.FIRESTORE_EMULATOR_HOST;
  }
  const launcher = options.viaNpm
    ? spawnGroup("npm", ["start", "--silent"], { cwd: REPO_ROOT, env, onLine: (line) => lines.push(line) })
    : spawnGroup(process.execPath, ["--import", "tsx", "scripts/local-stack/main.ts"], {
        cwd: REPO_ROOT,
        env,
        onLine: (line) => lines.push(line),
      });
  const ready = () =>
    waitFor(
      async () => lines.some((line) => line.includes("ready")),
      120_000,
      () => `the launcher never said ready:\n${lines.join("\n")}`,
      () => launcher.child.exitCode !== null,
    );
  return { launcher, lines, ready };
}

const stat = (pid: number) => {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    const [state, ppid] = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { state, ppid: Number(ppid) };
  } catch {
    return undefined;
  }
};

/** Every process below `pid`, from /proc (Linux). */
export function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    const child = Number(entry);
    const info = Number.isInteger(child) ? stat(child) : undefined;
    if (info) children.set(info.ppid, [...(children.get(info.ppid) ?? []), child]);
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift() as number) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/** Running, not a zombie waiting to be reaped. */
export const running = (pid: number) => {
  const info = stat(pid);
  return info !== undefined && info.state !== "Z";
};
