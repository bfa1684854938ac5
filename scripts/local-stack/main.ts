import { Firestore } from "@google-cloud/firestore";
import { generateApiKey } from "@usage-ingestion/shared/server";
import { createApiKey, createOrganization, setOrganizationStatus, UserError } from "../admin/organizations.ts";
import { BUNDLES, bundle } from "../lib/bundle.ts";
import { watchParents } from "../lib/parent-watch.ts";
import { PortInUseError, type Stack, startStack } from "../lib/stack.ts";

/**
 * `npm start`: the whole service on this machine. Emulators (or the ones the *_EMULATOR_HOST variables
 * point at), the Pub/Sub topology, the cost worker, the gateway, and an active development key. The
 * services run from the bundles built at start, as in production, and are restarted when they die;
 * whatever this process started stops when it stops, however it is stopped (the orphan guard in
 * scripts/lib covers SIGKILL).
 */
const DEV_ORGANIZATION = "dev";
const projectId = process.env.GOOGLE_CLOUD_PROJECT ?? "demo-usage-ingestion";
const gatewayPort = Number(process.env.PORT ?? 8080);
const quiet = process.env.STACK_QUIET === "1";

async function seedDevelopmentKey(): Promise<string> {
  const db = new Firestore({ projectId });
  try {
    try {
      await createOrganization(db, DEV_ORGANIZATION, "Development");
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      await setOrganizationStatus(db, DEV_ORGANIZATION, "active");
    }
    const { key } = await createApiKey(db, DEV_ORGANIZATION, process.env.DEV_API_KEY || generateApiKey());
    return key;
  } finally {
    await db.terminate();
  }
}

let stack: Stack | undefined;
let stopping = false;
async function stop(code: number) {
  if (stopping) return;
  stopping = true;
  console.log("Stopping the local stack...");
  await stack?.stop();
  console.log("Stopped.");
  process.exit(code);
}
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => void stop(0));
watchParents((pid) => {
  console.error(`[stack] the process that started this one (pid ${pid}) is gone`);
  void stop(1);
});
const stackLine = (line: string) => console.log(`[stack] ${line}`);

try {
  console.log(`Starting the local stack for project ${projectId}...`);
  // The services run as the deployed ones do: bundled, on the memory flags of their images.
  for (const target of Object.values(BUNDLES)) await bundle(target);
  stack = await startStack({
    built: true,
    projectId,
    gatewayPort,
    workerPort: process.env.WORKER_PORT ? Number(process.env.WORKER_PORT) : undefined,
    existingEmulators: {
      pubsubHost: process.env.PUBSUB_EMULATOR_HOST,
      firestoreHost: process.env.FIRESTORE_EMULATOR_HOST,
    },
    onLine: quiet ? undefined : (service, line) => console.log(`[${service}] ${line}`),
    onEvent: stackLine,
    onGiveUp: (reason) => {
      console.error(`Error: ${reason}. Stopping the local stack.`);
      void stop(1);
    },
  });
  const key = await seedDevelopmentKey();
  const example = JSON.stringify({
    provider: "openai",
    model: "gpt-4o",
    usage: [{ type: "tokens", metrics: { input_tokens: 1200, output_tokens: 300, total_tokens: 1500 } }],
    context: { billable_customer_id: "customer-1" },
  });
  console.log(`
Gateway:          ${stack.baseUrl}
Cost worker:      ${stack.workerUrl}
Pub/Sub emulator: ${stack.emulators.pubsubHost}   Firestore emulator: ${stack.emulators.firestoreHost}
Organization:     ${DEV_ORGANIZATION}
API key:          ${key}

Try it:
curl -i -X POST ${stack.baseUrl}/usage/transactions \\
  -H 'Content-Type: application/json' -H 'X-Api-Key: ${key}' \\
  -d '${example}'

Manage it (in another terminal):
PUBSUB_EMULATOR_HOST=${stack.emulators.pubsubHost} FIRESTORE_EMULATOR_HOST=${stack.emulators.firestoreHost} GOOGLE_CLOUD_PROJECT=${projectId} npm run admin -- org list

The local stack is ready. Ctrl-C stops everything.`);
} catch (error) {
  console.error(error instanceof PortInUseError ? `Error: ${error.message}` : error);
  await stop(1);
}
