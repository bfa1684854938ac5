import { spawnSync } from "node:child_process";
import { freePort, type GroupProcess, httpOk, spawnGroup, waitFor } from "./processes.ts";

export interface Emulators {
  projectId: string;
  pubsubHost: string;
  firestoreHost: string;
  /** Environment that points the Google Cloud client libraries at these emulators. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

export interface EmulatorOptions {
  projectId: string;
  pubsubPort?: number;
  firestorePort?: number;
  /** Hosts of emulators already running, used instead of starting new ones. */
  existing?: { pubsubHost?: string; firestoreHost?: string };
}

const STARTUP_TIMEOUT_MS = 60_000;

/** One emulator as a process group on `port`, once it answers; `extraArgs` go to `gcloud ... start`. */
export async function startEmulator(
  kind: "pubsub" | "firestore",
  projectId: string,
  port: number,
  extraArgs: string[] = [],
): Promise<GroupProcess> {
  const args = [
    ...(kind === "pubsub" ? ["beta", "emulators", "pubsub", "start"] : ["emulators", "firestore", "start"]),
    `--host-port=127.0.0.1:${port}`,
    `--project=${projectId}`,
    ...extraArgs,
  ];
  const emulator = spawnGroup("gcloud", args, { env: { ...process.env, METADATA_SERVER_DETECTION: "none" } });
  let failed: Error | undefined;
  emulator.child.once("error", (error) => {
    failed = error;
  });
  try {
    await waitFor(
      () => httpOk(`http://127.0.0.1:${port}/`),
      STARTUP_TIMEOUT_MS,
      () =>
        `The ${kind} emulator did not start on port ${port}` +
        (failed ? `: ${failed.message} (is the Google Cloud CLI installed?)` : `:\n${emulator.output()}`),
      () => failed !== undefined || emulator.child.exitCode !== null,
    );
  } catch (error) {
    await emulator.stop();
    throw error;
  }
  return emulator;
}

const gcloudInstalled = () => !spawnSync("gcloud", ["--version"], { stdio: "ignore" }).error;

/**
 * Starts the Pub/Sub and Firestore emulators side by side (or adopts running ones): as process groups
 * with the Google Cloud CLI, or, where only a Docker engine is there, in containers.
 */
export async function startEmulators(options: EmulatorOptions): Promise<Emulators> {
  const started: Array<{ stop(): Promise<void> }> = [];
  const useContainers = !gcloudInstalled();
  const resolveHost = async (kind: "pubsub" | "firestore", existing?: string, port?: number) => {
    if (existing) return existing;
    if (useContainers) {
      const { startEmulatorContainer } = await import("./emulator-containers.ts");
      const container = await startEmulatorContainer(kind, options.projectId);
      started.push(container);
      return container.host;
    }
    const chosen = port ?? (await freePort());
    started.push(await startEmulator(kind, options.projectId, chosen));
    return `127.0.0.1:${chosen}`;
  };
  try {
    const [pubsubHost, firestoreHost] = await Promise.all([
      resolveHost("pubsub", options.existing?.pubsubHost, options.pubsubPort),
      resolveHost("firestore", options.existing?.firestoreHost, options.firestorePort),
    ]);
    return {
      projectId: options.projectId,
      pubsubHost,
      firestoreHost,
      env: {
        PUBSUB_EMULATOR_HOST: pubsubHost,
        FIRESTORE_EMULATOR_HOST: firestoreHost,
        GOOGLE_CLOUD_PROJECT: options.projectId,
        METADATA_SERVER_DETECTION: "none",
      },
      stop: () => Promise.all(started.map((emulator) => emulator.stop())).then(() => undefined),
    };
  } catch (error) {
    await Promise.all(started.map((emulator) => emulator.stop()));
    throw error;
  }
}
