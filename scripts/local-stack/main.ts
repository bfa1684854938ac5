import { Firestore } from "@google-cloud/firestore";
import { dispatchWebhooks, evaluateBudgets, foldSummaries, reconcileVendors } from "@usage-ingestion/cost-worker";
import {
  createApiKey,
  createOrganization,
  generateApiKey,
  listDimensions,
  setDimensions,
  setOrganizationStatus,
  terminateDatabases,
} from "@usage-ingestion/organizations";
import { UserError } from "@usage-ingestion/shared";
import { generateSecretKey } from "@usage-ingestion/webhooks";
import { adminDatabases } from "../admin/firestore.ts";
import { BUNDLES, bundle } from "../lib/bundle.ts";
import { localStackStatePath, removeLocalStackState, writeLocalStackState } from "../lib/local-stack-state.ts";
import { watchParents } from "../lib/parent-watch.ts";
import { PortInUseError, type Stack, startStack } from "../lib/stack.ts";
import { DEV_EMAIL, type LocalSignIn, seedOwner, startLocalSignIn } from "./dev-sign-in.ts";
import { everyTick } from "./tick-jobs.ts";

/**
 * `npm start`: the whole service on this machine. Emulators (or the ones the *_EMULATOR_HOST variables
 * point at), the Pub/Sub topology, the cost worker, the gateway, and an active development organization
 * with a context dimension, an ingest key and a read key, and a development OpenID provider whose one
 * account, dev@example.com, owns that organization (the console's sign-in). The services run from the bundles built at
 * start, as in production, and are restarted when they die; whatever this process started stops when it
 * stops, however it is stopped (the orphan guard in scripts/lib covers SIGKILL). While it runs, it records
 * itself (scripts/lib/local-stack-state.ts) so that `npm run admin` finds it with no variable to set.
 */
const DEV_ORGANIZATION = "dev";
/** The context dimension the printed examples group and filter on. */
const DEV_DIMENSION = "feature";
const projectId = process.env.GOOGLE_CLOUD_PROJECT ?? "demo-usage-ingestion";
const gatewayPort = Number(process.env.PORT ?? 8080);
const quiet = process.env.STACK_QUIET === "1";

/** The development organization, its context dimension, an ingest key and a read key (the dashboard's). */
async function seedDevelopment(): Promise<{ ingestKey: string; readKey: string }> {
  const db = new Firestore({ projectId });
  // The gateway started below reads keys where KEYS_DATABASE says, as the admin command line writes them.
  const databases = adminDatabases(db, { ...process.env, GOOGLE_CLOUD_PROJECT: projectId });
  try {
    try {
      await createOrganization(db, DEV_ORGANIZATION, "Development");
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      await setOrganizationStatus(db, DEV_ORGANIZATION, "active");
    }
    // Emulators kept from an earlier run may hold more dimensions: the feature one is added, none removed.
    const dimensions = await listDimensions(db, DEV_ORGANIZATION);
    if (!dimensions.includes(DEV_DIMENSION)) await setDimensions(db, DEV_ORGANIZATION, [...dimensions, DEV_DIMENSION]);
    await seedOwner(db, DEV_ORGANIZATION, DEV_EMAIL);
    const ingest = await createApiKey(databases, DEV_ORGANIZATION, process.env.DEV_API_KEY || generateApiKey());
    const read = await createApiKey(
      databases,
      DEV_ORGANIZATION,
      process.env.DEV_READ_KEY || generateApiKey(),
      undefined,
      "read",
    );
    return { ingestKey: ingest.key, readKey: read.key };
  } finally {
    await terminateDatabases(databases);
  }
}

/** The key that seals webhook secrets: WEBHOOK_SECRET_KEY, or one made for this run (recorded for the admin). */
const webhookSecretKey = process.env.WEBHOOK_SECRET_KEY || generateSecretKey();
const webhookSweepAfterMs = Number(process.env.WEBHOOK_SWEEP_AFTER_MS ?? 10_000);

let stack: Stack | undefined;
let signIn: LocalSignIn | undefined;
let stopFolding: (() => Promise<void>) | undefined;
let stopDispatching: (() => Promise<void>) | undefined;

let stopBudgets: (() => Promise<void>) | undefined;
let stopReconciling: (() => Promise<void>) | undefined;
let stopping = false;
async function stop(code: number) {
  if (stopping) return;
  stopping = true;
  removeLocalStackState(process.pid);
  console.log("Stopping the local stack...");
  await stopFolding?.();
  await stopDispatching?.();
  await stopBudgets?.();
  await stopReconciling?.();
  await stack?.stop();
  await signIn?.provider.close();
  console.log("Stopped.");
  process.exit(code);
}
// However this process ends short of SIGKILL (a stale file names a dead pid, which the admin ignores).
process.on("exit", () => removeLocalStackState(process.pid));
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
  // Before the gateway, which is given its address; the gateway's own is fixed by PORT.
  signIn = await startLocalSignIn(`http://127.0.0.1:${gatewayPort}`);
  stack = await startStack({
    built: true,
    projectId,
    webhookSecretKey,
    env: { WEBHOOK_SWEEP_AFTER_MS: String(webhookSweepAfterMs) },
    gatewayEnv: signIn.gatewayEnv,
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
  const { ingestKey, readKey } = await seedDevelopment();
  // The scheduled jobs, from the worker's own files, as Cloud Scheduler ticks them in Google Cloud: the
  // fold every FOLD_INTERVAL_MS (a minute), the webhook dispatch every WEBHOOK_DISPATCH_INTERVAL_MS (3 s,
  // with a sweep time of 10 s: the Pub/Sub emulator gives up pushing a delivery after a few failures and
  // the sweep is what queues it again), the budget evaluation every BUDGETS_INTERVAL_MS (5 s) and the
  // reconciliation with the vendors' reports every RECONCILE_INTERVAL_MS (10 s: a run asked for through the
  // API is taken up that soon; the day's own runs are queued once a day).
  const jobEnv = {
    ...process.env,
    GOOGLE_CLOUD_PROJECT: projectId,
    LOG_FORMAT: "text",
    WEBHOOK_SWEEP_AFTER_MS: String(webhookSweepAfterMs),
    WEBHOOK_DELIVERIES_TOPIC: stack.webhooks?.topic as string,
    WEBHOOK_SECRET_KEY: webhookSecretKey,
  };
  const print = (prefix: string) => (line: string) => {
    if (!quiet) console.log(`[${prefix}] ${line}`);
  };
  stopFolding = everyTick(foldSummaries, jobEnv, Number(process.env.FOLD_INTERVAL_MS ?? 60_000), print("fold"));
  stopDispatching = everyTick(
    dispatchWebhooks,
    jobEnv,
    Number(process.env.WEBHOOK_DISPATCH_INTERVAL_MS ?? 3_000),
    (line) => console.log(`[webhooks] ${line}`),
  );
  stopBudgets = everyTick(evaluateBudgets, jobEnv, Number(process.env.BUDGETS_INTERVAL_MS ?? 5_000), print("budgets"));
  stopReconciling = everyTick(
    reconcileVendors,
    jobEnv,
    Number(process.env.RECONCILE_INTERVAL_MS ?? 10_000),
    print("reconcile"),
  );
  const recorded = writeLocalStackState({
    projectId,
    firestoreEmulatorHost: stack.emulators.firestoreHost,
    pubsubEmulatorHost: stack.emulators.pubsubHost,
    pubsubTopic: stack.names.topic,
    webhookSecretKey,
    webhookDeliveriesTopic: stack.webhooks?.topic,
    gatewayUrl: stack.baseUrl,
    pid: process.pid,
    startedAt: new Date().toISOString(),
  });
  const example = JSON.stringify({
    provider: "openai",
    model: "gpt-4o",
    usage: [{ type: "tokens", metrics: { input_tokens: 1200, output_tokens: 300, total_tokens: 1500 } }],
    context: { billable_customer_id: "customer-1", [DEV_DIMENSION]: "chat" },
  });
  const costs = `${stack.baseUrl}/usage/costs?group_by=billable_customer_id,context.${DEV_DIMENSION}&context.${DEV_DIMENSION}=chat`;
  const manage = recorded.written
    ? "npm run admin -- org list"
    : // Another stack of this checkout is recorded; this one is named by the variables.
      `PUBSUB_EMULATOR_HOST=${stack.emulators.pubsubHost} FIRESTORE_EMULATOR_HOST=${stack.emulators.firestoreHost} GOOGLE_CLOUD_PROJECT=${projectId} npm run admin -- org list
(without the variables it talks to the local stack of pid ${recorded.runningPid}, recorded in ${localStackStatePath()})`;
  console.log(`
Gateway:          ${stack.baseUrl}
Dashboard:        ${stack.baseUrl}/dashboard
Cost worker:      ${stack.workerUrl}
Webhooks:         ${stack.webhooks?.url} (budget events, signed; npm run admin -- webhook create dev <url>)
Pub/Sub emulator: ${stack.emulators.pubsubHost}   Firestore emulator: ${stack.emulators.firestoreHost}
Organization:     ${DEV_ORGANIZATION} (context dimension: ${DEV_DIMENSION})
Ingest key:       ${ingestKey}
Read key:         ${readKey}
(The ingest key sends usage; the read key reads costs: the dashboard and GET /usage/costs.)

Console: ${stack.baseUrl}/console
Sign in as: ${DEV_EMAIL}
Password: ${signIn.password}
(The development OpenID provider at ${signIn.provider.issuer}; ${DEV_EMAIL} owns ${DEV_ORGANIZATION}.)

Send usage (ingest key):
curl -i -X POST ${stack.baseUrl}/usage/transactions \\
  -H 'Content-Type: application/json' -H 'X-Api-Key: ${ingestKey}' \\
  -d '${example}'

Read the costs back (read key; once the worker has priced it, within seconds):
curl -s '${costs}' \\
  -H 'X-Api-Key: ${readKey}'

Manage it (in another terminal):
${manage}

The local stack is ready. Ctrl-C stops everything.`);
} catch (error) {
  console.error(error instanceof PortInUseError ? `Error: ${error.message}` : error);
  await stop(1);
}
