import { PubSub } from "@google-cloud/pubsub";
import { type Emulators, startEmulators } from "./emulators.ts";
import { freePort, type GroupProcess, portIsFree } from "./processes.ts";
import { startGatewayProcess, startWorkerProcess } from "./services.ts";
import { defaultTopologyNames, ensureTopology, pushEndpointFor, type TopologyNames } from "./topology.ts";

export interface StackOptions {
  projectId: string;
  gatewayPort: number;
  workerPort?: number;
  existingEmulators?: { pubsubHost?: string; firestoreHost?: string };
  /** Extra environment for both services (cache times, timeouts). */
  env?: Record<string, string>;
  onLine?: (service: "gateway" | "worker", line: string) => void;
}

export interface Stack {
  baseUrl: string;
  workerUrl: string;
  emulators: Emulators;
  names: TopologyNames;
  stop(): Promise<void>;
}

export class PortInUseError extends Error {
  override name = "PortInUseError";
}

/** Emulators, the Pub/Sub topology, the worker and the gateway: everything, on one machine. */
export async function startStack(options: StackOptions): Promise<Stack> {
  for (const port of [options.gatewayPort, options.workerPort]) {
    if (port !== undefined && !(await portIsFree(port))) {
      throw new PortInUseError(`port ${port} is already in use; stop what holds it or choose another port`);
    }
  }
  const started: GroupProcess[] = [];
  const emulators = await startEmulators({ projectId: options.projectId, existing: options.existingEmulators });
  const stop = async () => {
    await Promise.all(started.reverse().map((process) => process.stop()));
    await emulators.stop();
  };
  try {
    // This process talks to the emulators too (topology, seeding).
    Object.assign(process.env, emulators.env);
    // Short human log lines on this machine; the deployed services keep Cloud Logging's JSON.
    const env: Record<string, string> = { LOG_FORMAT: "text", ...emulators.env, ...options.env };
    const workerPort = options.workerPort ?? (await freePort());
    const workerUrl = `http://127.0.0.1:${workerPort}`;
    const names = defaultTopologyNames(env.PUBSUB_TOPIC);
    const pubsub = new PubSub({ projectId: options.projectId });
    started.push(
      await startWorkerProcess({ port: workerPort, env, onLine: (line) => options.onLine?.("worker", line) }),
    );
    await ensureTopology(pubsub, names, {
      pushEndpoint: pushEndpointFor(workerUrl, options.projectId, names.topic),
    });
    await pubsub.close();
    started.push(
      await startGatewayProcess({
        port: options.gatewayPort,
        env: { ...env, PUBSUB_TOPIC: names.topic },
        onLine: (line) => options.onLine?.("gateway", line),
      }),
    );
    return { baseUrl: `http://127.0.0.1:${options.gatewayPort}`, workerUrl, emulators, names, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
