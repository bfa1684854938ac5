import { Firestore } from "@google-cloud/firestore";
import * as functions from "@google-cloud/functions-framework";
import { parseTraceparent, TRACEPARENT_ATTRIBUTE } from "@usage-ingestion/shared";
import { createLogger } from "@usage-ingestion/shared/server";
import { parseWorkerConfig } from "./env.ts";
import { foldDue } from "./fold/fold-due.ts";
import { FOLD_FUNCTION_NAME, FUNCTION_NAME } from "./function-name.ts";
import { handleMessage, type PubSubEvent } from "./handler.ts";
import { outsideDomain } from "./outside-domain.ts";
import { commitsOn } from "./store/commits-transport.ts";
import { firestoreCustomPricingStore } from "./store/custom-pricing-store.ts";
import { firestoreDimensionsStore } from "./store/dimensions-store.ts";
import { firestoreCommitsOptions } from "./store/firestore-commits.ts";
import { firestoreRecordStore } from "./store/records.ts";

/** The composition root: config parsed once, one Firestore client, the handler registered by name. */
const config = parseWorkerConfig(process.env);
const projectId = config.GOOGLE_CLOUD_PROJECT;
// The Firestore client traces every call through OpenTelemetry unless told not to. No tracer provider is
// registered here, so each span was built for nothing (about 2% of the worker's CPU in a profile of a
// backlog drain); whoever registers one can set FIRESTORE_ENABLE_TRACING=on.
process.env.FIRESTORE_ENABLE_TRACING ??= "off";
const firestore = new Firestore(projectId ? { projectId } : {});
// Records are committed on a channel of our own (store/firestore-commits.ts), to the same database and
// endpoint, found from the same settings once here; or, FIRESTORE_COMMIT_TRANSPORT=client, by the client.
const commits = commitsOn(
  config.FIRESTORE_COMMIT_TRANSPORT,
  firestore,
  () =>
    firestoreCommitsOptions({
      emulatorHost: process.env.FIRESTORE_EMULATOR_HOST,
      universeDomain: config.GOOGLE_CLOUD_UNIVERSE_DOMAIN,
      projectId,
      databaseId: firestore.databaseId,
      timeoutMs: config.FIRESTORE_TIMEOUT_MS,
    }),
  config.FIRESTORE_TIMEOUT_MS,
);
const deps = {
  records: firestoreRecordStore(firestore, commits, config.FIRESTORE_TIMEOUT_MS),
  customPricing: firestoreCustomPricingStore(
    firestore,
    config.CUSTOM_PRICING_CACHE_TTL_MS,
    config.FIRESTORE_TIMEOUT_MS,
  ),
  dimensions: firestoreDimensionsStore(firestore, config.DIMENSIONS_CACHE_TTL_MS, config.FIRESTORE_TIMEOUT_MS),
  logger: createLogger(config.LOG_FORMAT, projectId),
};

functions.cloudEvent(FUNCTION_NAME, (event: functions.CloudEvent<PubSubEvent["data"]>) =>
  outsideDomain(() => handle(event as PubSubEvent)),
);

async function handle(event: PubSubEvent): Promise<void> {
  try {
    await handleMessage(deps, event);
  } catch (error) {
    // Pub/Sub redelivers; the line (with its stack, for Error Reporting) joins the request's trace.
    const message = event.data?.message;
    deps.logger.log("ERROR", "message failed; Pub/Sub will redeliver it", {
      message_id: message?.messageId ?? message?.message_id ?? event.id,
      trace: parseTraceparent(message?.attributes?.[TRACEPARENT_ATTRIBUTE]),
      error,
    });
    throw error;
  }
}

// The fold step, deployed as a function of its own from this same code (infra/modules/worker): each tick
// folds what is due. Its client reads integers as BigInt (shard sums of nanos may pass 2^53); made on the
// first tick, so the pricing function never opens it.
let foldFirestore: Firestore | undefined;
functions.cloudEvent(FOLD_FUNCTION_NAME, () =>
  outsideDomain(async () => {
    foldFirestore ??= new Firestore({ ...(projectId ? { projectId } : {}), useBigInt: true });
    const run = await foldDue(foldFirestore, Date.now(), {
      lookbackDays: config.FOLD_LOOKBACK_DAYS,
      lookbackHours: config.FOLD_LOOKBACK_HOURS,
      maxFolds: config.FOLD_MAX_PERIODS,
    });
    deps.logger.log("INFO", `folded ${run.folded.length} days and hours of ${run.organizations} organizations`, {
      folded: run.folded.length,
      deferred: run.deferred,
      organizations: run.organizations,
    });
  }),
);
