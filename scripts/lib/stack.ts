import { PubSub } from "@google-cloud/pubsub";
import { type Emulators, startEmulators } from "./emulators.ts";
import { freePort, portIsFree } from "./processes.ts";
import { redeliverySweep } from "./redelivery.ts";
import { startGatewayProcess, startWorkerProcess } from "./services.ts";
import { type Supervised, type SupervisorOptions, supervise } from "./supervisor.ts";
import { defaultTopologyNames, ensureTopology, pushEndpointFor, type TopologyNames } from "./topology.ts";
import { startWebhookDelivery } from "./webhook-topology.ts";

export interface StackOptions {
  projectId: string;
  gatewayPort: number;
  workerPort?: number;
  existingEmulators?: { pubsubHost?: string; firestoreHost?: string };
  /** Extra environment for both services (cache times, timeouts). */
  env?: Record<string, string>;
  /** Extra environment for the gateway alone (npm start's sign-in variables). */
  gatewayEnv?: Record<string, string>;
  onLine?: (service: "gateway" | "worker" | "webhooks", line: string) => void;
  /** The stack's own lines: restarts, redelivery trouble. */
  onEvent?: (line: string) => void;
  /** A service kept dying and is no longer restarted; the caller should stop the stack. */
  onGiveUp?: (reason: string) => void;
  /** How often unacknowledged messages are pushed again (docs/local-development.md, "Pub/Sub emulator behaviour"). */
  redeliveryIntervalMs?: number;
  supervision?: Pick<SupervisorOptions, "maxRestarts" | "windowMs" | "restartDelayMs">;
  /** Run the bundles `npm run build` makes, as production does, instead of the TypeScript sources. */
  built?: boolean;
  /**
   * Also the webhook delivery function, with this key sealing secrets, which the gateway's management API
   * is given too (npm start; the tests need none).
   */
  webhookSecretKey?: string;
}

export interface Stack {
  baseUrl: string;
  workerUrl: string;
  emulators: Emulators;
  names: TopologyNames;
  gateway: Supervised;
  worker: Supervised;
  /** The webhook delivery function, when asked for (`webhookSecretKey`). */
  webhooks?: { url: string; topic: string };
  /** Has every unacknowledged message pushed to the worker again now. */
  redeliver(): Promise<void>;
  stop(): Promise<void>;
}

export class PortInUseError extends Error {
  override name = "PortInUseError";
}

export const DEFAULT_REDELIVERY_INTERVAL_MS = 10_000;

/**
 * Emulators, the Pub/Sub topology, the worker and the gateway: everything, on one machine. The worker and
 * the gateway are supervised (restarted when they die), and unacknowledged messages are pushed again at
 * start, after each worker restart and periodically, so nothing accepted stays undelivered.
 */
export async function startStack(options: StackOptions): Promise<Stack> {
  for (const port of [options.gatewayPort, options.workerPort]) {
    if (port !== undefined && !(await portIsFree(port))) {
      throw new PortInUseError(`port ${port} is already in use; stop what holds it or choose another port`);
    }
  }
  const started: Array<{ stop(): Promise<void> }> = [];
  const emulators = await startEmulators({ projectId: options.projectId, existing: options.existingEmulators });
  // This process talks to the emulators too (topology, seeding, redelivery).
  Object.assign(process.env, emulators.env);
  const pubsub = new PubSub({ projectId: options.projectId });
  const event = options.onEvent ?? ((line: string) => console.error(`[stack] ${line}`));
  let sweep: ReturnType<typeof redeliverySweep> | undefined;
  const stop = async () => {
    sweep?.stop();
    await Promise.all(started.reverse().map((process) => process.stop()));
    await pubsub.close();
    await emulators.stop();
  };
  const supervision = (onRestarted?: () => Promise<void>): SupervisorOptions => ({
    ...options.supervision,
    log: event,
    onRestarted,
    onGiveUp: options.onGiveUp ?? ((reason) => event(`${reason}; the stack is no longer whole`)),
  });
  try {
    // Short human log lines on this machine; the deployed services keep Cloud Logging's JSON.
    const env: Record<string, string> = { LOG_FORMAT: "text", ...emulators.env, ...options.env };
    const workerPort = options.workerPort ?? (await freePort());
    const workerUrl = `http://127.0.0.1:${workerPort}`;
    const names = defaultTopologyNames(env.PUBSUB_TOPIC, env.RECORDS_TOPIC);
    let workerSpoke = 0;
    const startWorker = () =>
      startWorkerProcess({
        port: workerPort,
        env,
        built: options.built,
        onLine: (line) => {
          workerSpoke = Date.now();
          options.onLine?.("worker", line);
        },
      });
    const worker = supervise(
      "cost worker",
      await startWorker(),
      startWorker,
      supervision(async () => sweep?.now()),
    );
    started.push(worker);
    await ensureTopology(pubsub, names, {
      pushEndpoint: pushEndpointFor(workerUrl, options.projectId, names.topic),
    });
    const intervalMs = options.redeliveryIntervalMs ?? DEFAULT_REDELIVERY_INTERVAL_MS;
    sweep = redeliverySweep(pubsub, names.subscription, {
      intervalMs,
      log: event,
      // The worker logs a line per message: one within the last second means it is working through pushes.
      busy: () => Date.now() - workerSpoke < 1_000,
    });
    // What an earlier stack on these emulators accepted and never delivered goes out now.
    await sweep.now();
    const webhooks =
      options.webhookSecretKey === undefined
        ? undefined
        : await startWebhookDelivery(pubsub, {
            projectId: options.projectId,
            port: await freePort(),
            env: { ...env, WEBHOOK_SECRET_KEY: options.webhookSecretKey },
            built: options.built,
            onLine: (line) => options.onLine?.("webhooks", line),
            supervision: supervision(),
          });
    if (webhooks) started.push(webhooks.process);
    // The management API seals the secrets of the webhooks it creates with the delivery function's key,
    // and queues replays on its topic, as the reports gateway does on Google Cloud.
    const webhookEnv: Record<string, string> = webhooks
      ? { WEBHOOK_SECRET_KEY: options.webhookSecretKey as string, WEBHOOK_DELIVERIES_TOPIC: webhooks.names.topic }
      : {};
    const startGateway = () =>
      startGatewayProcess({
        port: options.gatewayPort,
        env: { ...env, ...webhookEnv, ...options.gatewayEnv, PUBSUB_TOPIC: names.topic },
        built: options.built,
        onLine: (line) => options.onLine?.("gateway", line),
      });
    const gateway = supervise("gateway", await startGateway(), startGateway, supervision());
    started.push(gateway);
    return {
      baseUrl: `http://127.0.0.1:${options.gatewayPort}`,
      workerUrl,
      emulators,
      names,
      gateway,
      worker,
      webhooks: webhooks && { url: webhooks.url, topic: webhooks.names.topic },
      redeliver: sweep.now,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
