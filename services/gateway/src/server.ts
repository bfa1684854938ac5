import { Firestore } from "@google-cloud/firestore";
import { PubSub } from "@google-cloud/pubsub";
import { firestoreBudgetSource } from "@usage-ingestion/budgets";
import {
  cachedKeyStore,
  DEFAULT_DATABASE,
  firestoreKeyStore,
  keyLastUsed,
  terminateDatabases,
  withKeysDatabase,
} from "@usage-ingestion/organizations";
import { firestoreReconciliationReader } from "@usage-ingestion/reconciliation";
import { firestoreRecordReader } from "@usage-ingestion/records";
import { firestoreReportSource } from "@usage-ingestion/reports";
import { ConfigError, createLogger, jsonLogger } from "@usage-ingestion/shared/server";
import { parseSecretKey, pubsubDeliveryQueue, SecretKeyError, secretBox } from "@usage-ingestion/webhooks";
import { createApp } from "./app.ts";
import { createSignIn } from "./auth/session/sign-in.ts";
import {
  pageTokenKey,
  parseGatewayConfig,
  rateLimitConfig,
  reportSettings,
  servesIngestion,
  servesReports,
  signInConfigOf,
} from "./env.ts";
import { answerParserErrors } from "./http/parser-errors.ts";
import { firestorePairing } from "./otlp/firestore-pairing.ts";
import { pubSubPublisher } from "./queue/publisher.ts";

/** The composition root: real clients built once, passed in, and shut down in order on SIGTERM. */
let config: ReturnType<typeof parseGatewayConfig>;
let signInSettings: ReturnType<typeof signInConfigOf>;
let webhookKey: Buffer | undefined;
try {
  config = parseGatewayConfig(process.env);
  signInSettings = signInConfigOf(config);
  webhookKey = config.WEBHOOK_SECRET_KEY ? parseSecretKey(config.WEBHOOK_SECRET_KEY) : undefined;
} catch (error) {
  if (!(error instanceof ConfigError) && !(error instanceof SecretKeyError)) throw error;
  jsonLogger().log("ERROR", error.message);
  process.exit(1);
}

const projectId = config.GOOGLE_CLOUD_PROJECT;
const logger = createLogger(config.LOG_FORMAT, projectId);
const firestore = new Firestore(projectId ? { projectId } : {});
const databases = withKeysDatabase(
  firestore,
  config.KEYS_DATABASE,
  (databaseId) => new Firestore({ ...(projectId ? { projectId } : {}), databaseId }),
);
const role = config.GATEWAY_ROLE;
// Cloud Run sets K_SERVICE: there, tokens signed with the public development key could be forged.
if (servesReports(role) && config.PAGE_TOKEN_KEY === undefined && process.env.K_SERVICE) {
  logger.log("WARNING", "PAGE_TOKEN_KEY is not set: records page tokens are signed with the public development key");
}
// Reports sum integer nanos that may pass 2^53: their client reads integers as BigInt.
const reportsFirestore = servesReports(role)
  ? new Firestore({ ...(projectId ? { projectId } : {}), useBigInt: true })
  : undefined;
// The universe domain is given to the client as it would read it, so that our own calls follow it too.
const universeDomain = config.GOOGLE_CLOUD_UNIVERSE_DOMAIN;
const pubsub = servesIngestion(role)
  ? new PubSub({ ...(projectId ? { projectId } : {}), ...(universeDomain ? { universeDomain } : {}) })
  : undefined;
// OTLP's spans are paired where every ingest instance sees them (decisions/0034), in a database of their own.
const pairingFirestore =
  servesIngestion(role) && config.OTLP_CALL_PAIRING === "shared"
    ? config.OTLP_PAIRING_DATABASE === DEFAULT_DATABASE
      ? firestore
      : new Firestore({ ...(projectId ? { projectId } : {}), databaseId: config.OTLP_PAIRING_DATABASE })
    : undefined;
// Bounded by PUBLISH_TIMEOUT_MS per request, keeping the ids confirmed before the bound.
const publisher =
  pubsub &&
  pubSubPublisher(pubsub, {
    topic: config.PUBSUB_TOPIC,
    transport: config.PUBSUB_PUBLISH_TRANSPORT,
    timeoutMs: config.PUBLISH_TIMEOUT_MS,
    batchMaxMs: config.PUBLISH_BATCH_MAX_MS,
  });
const keys = cachedKeyStore(firestoreKeyStore(databases), {
  ttlMs: config.KEY_CACHE_TTL_MS,
  maxEntries: config.KEY_CACHE_MAX_ENTRIES,
  lookupTimeoutMs: config.KEY_LOOKUP_TIMEOUT_MS,
  serveStaleMs: config.KEY_SERVE_STALE_MS,
  onStale: (error) => logger.log("WARNING", "key store unavailable: a key is accepted as last read", { error }),
});

// `last_used_at`: keys seen are written at most every 5 minutes each, by a timer, never by a request.
const lastUsed = keyLastUsed(databases.keys, {
  onError: (error) => logger.log("WARNING", "could not record a key's last use", { error: error as Error }),
});
const lastUsedTimer = setInterval(() => void lastUsed.flush(), 60_000);
lastUsedTimer.unref();

const server = createApp({
  role,
  keys,
  keyUsed: lastUsed.seen,
  // One call billed once across instances: spans are paired in the pairing database (decisions/0034).
  ...(pairingFirestore
    ? { pairing: firestorePairing(pairingFirestore, { timeoutMs: config.OTLP_PAIRING_TIMEOUT_MS }) }
    : {}),
  // The management API writes through the same stores as the admin command line (docs/management-api.md).
  ...(servesReports(role)
    ? {
        management: {
          databases,
          webhooks: {
            ...(webhookKey ? { box: secretBox(webhookKey) } : {}),
            queue: pubsubDeliveryQueue(
              new PubSub({ ...(projectId ? { projectId } : {}), ...(universeDomain ? { universeDomain } : {}) }),
              config.WEBHOOK_DELIVERIES_TOPIC,
            ),
          },
        },
      }
    : {}),
  ...(publisher ? { publisher } : {}),
  logger,
  ...(reportsFirestore
    ? {
        reports: firestoreReportSource(reportsFirestore),
        budgets: firestoreBudgetSource(reportsFirestore),
        // Records are answered as JSON: read with the plain client, whose integers are numbers.
        records: firestoreRecordReader(firestore, pageTokenKey(config)),
        pageTokenKey: pageTokenKey(config),
        reconciliations: firestoreReconciliationReader(firestore),
      }
    : {}),
  trustProxyHops: config.TRUST_PROXY_HOPS,
  rateLimits: rateLimitConfig(config),
  reportSettings: reportSettings(config),
  // People sign in where the reports are served; members and sessions live with the organizations.
  ...(signInSettings && servesReports(role) ? { signIn: createSignIn(signInSettings, firestore) } : {}),
}).listen(config.PORT, () => {
  logger.log("INFO", `gateway (${role}) listening on port ${config.PORT}`, {
    port: config.PORT,
    role,
    ...(publisher ? { topic: config.PUBSUB_TOPIC, publish_transport: config.PUBSUB_PUBLISH_TRANSPORT } : {}),
  });
});
answerParserErrors(server, logger);
server.on("error", (error: NodeJS.ErrnoException) => {
  logger.log("ERROR", error.code === "EADDRINUSE" ? `port ${config.PORT} is already in use` : error.message);
  process.exit(1);
});

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.log("INFO", `${signal}: draining`);
  const forced = setTimeout(() => {
    logger.log("ERROR", "shutdown timed out; exiting");
    process.exit(1);
  }, config.SHUTDOWN_TIMEOUT_MS);
  forced.unref();
  // Stop accepting, let in-flight requests finish (each waits for its publishes), then flush and close.
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
  clearInterval(lastUsedTimer);
  await lastUsed.flush().catch(() => undefined);
  await publisher?.close().catch(() => undefined);
  await Promise.allSettled([
    pubsub?.close(),
    terminateDatabases(databases),
    reportsFirestore?.terminate(),
    pairingFirestore === firestore ? undefined : pairingFirestore?.terminate(),
  ]);
  logger.log("INFO", "gateway stopped");
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
