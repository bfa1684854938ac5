import { connect } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { FUNCTION_NAME } from "@usage-ingestion/cost-worker";
import { type GroupProcess, spawnGroup, waitFor } from "./processes.ts";

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const FUNCTIONS_FRAMEWORK = join(
  REPO_ROOT,
  "node_modules",
  "@google-cloud",
  "functions-framework",
  "build",
  "src",
  "main.js",
);

export interface ServiceOptions {
  port: number;
  env: Record<string, string>;
  onLine?: (line: string) => void;
  /** Run the bundles `npm run build` made, as the images do, instead of the TypeScript sources. */
  built?: boolean;
  logFile?: string;
  /** Flags for node itself, before the script (e.g. `--cpu-prof`, which NODE_OPTIONS refuses). */
  nodeFlags?: string[];
  /** The worker's function to serve (default: the pricing one, FUNCTION_NAME). */
  target?: string;
}

/** Resolves true once something accepts connections at the URL's port (no request is sent). */
function accepts(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * The memory bounds the deployed services run with (infra sets the same NODE_OPTIONS): without them V8
 * grows the heap lazily under load, and Node 24's larger young generation alone adds about 100 MB.
 */
export const SERVICE_MEMORY_FLAGS = ["--max-old-space-size=192", "--max-semi-space-size=16"];

/**
 * The gateway's heap, given on node's command line (NODE_OPTIONS refuses `--initial-old-space-size`); its
 * image's CMD holds the same flags. A smaller young generation and an old generation that starts at 80 MB:
 * with V8's defaults the old generation's limit sat so close to its live size that incremental marking
 * ran almost without pause under load, a third of the gateway's CPU per transaction (docs/performance.md).
 */
export const GATEWAY_NODE_FLAGS = [
  "--max-old-space-size=192",
  "--max-semi-space-size=8",
  "--initial-old-space-size=80",
];

async function startNode(
  name: string,
  args: string[],
  url: string,
  options: ServiceOptions,
  memoryFlags: string[] = SERVICE_MEMORY_FLAGS,
): Promise<GroupProcess> {
  const flags = [...memoryFlags, ...(options.nodeFlags ?? [])];
  const child = spawnGroup(
    process.execPath,
    options.built ? [...flags, ...args] : [...flags, "--import", "tsx", ...args],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, ...options.env, PORT: String(options.port) },
      onLine: options.onLine,
      logFile: options.logFile,
    },
  );
  try {
    await waitFor(
      () => accepts(url),
      60_000,
      () => `The ${name} did not start on port ${options.port}:\n${child.output()}`,
      () => child.child.exitCode !== null,
    );
  } catch (error) {
    await child.stop();
    throw error;
  }
  return child;
}

/** The gateway, as Cloud Run runs it: `server.ts` on PORT. */
export const startGatewayProcess = (options: ServiceOptions) =>
  startNode(
    "gateway",
    [join(REPO_ROOT, options.built ? "services/gateway/dist/server.js" : "services/gateway/src/server.ts")],
    `http://127.0.0.1:${options.port}/healthz`,
    options,
    GATEWAY_NODE_FLAGS,
  );

/** Makes a server given only a port listen on 127.0.0.1 (the functions framework takes no address). */
export const LISTEN_ON_LOOPBACK = join(REPO_ROOT, "scripts", "lib", "listen-on-loopback.mjs");

/**
 * The cost worker (or another of its functions) under the functions framework, as Cloud Run functions runs
 * it, but listening on 127.0.0.1 only: on this machine nothing but Pub/Sub's emulator needs to reach it.
 */
export const startWorkerProcess = (options: ServiceOptions) =>
  startNode(
    "cost worker",
    [
      "--import",
      LISTEN_ON_LOOPBACK,
      FUNCTIONS_FRAMEWORK,
      `--target=${options.target ?? FUNCTION_NAME}`,
      "--signature-type=cloudevent",
      `--source=${join(REPO_ROOT, options.built ? "services/cost-worker/dist/index.js" : "services/cost-worker/src/index.ts")}`,
      `--port=${options.port}`,
    ],
    `http://127.0.0.1:${options.port}/`,
    options,
  );
