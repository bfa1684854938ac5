import { Firestore } from "@google-cloud/firestore";
import * as functions from "@google-cloud/functions-framework";
import { PubSub } from "@google-cloud/pubsub";
import { DEFAULT_REPORT_LIMITS } from "@usage-ingestion/reports";
import { localReceiversAllowed, parseTraceparent, TRACEPARENT_ATTRIBUTE } from "@usage-ingestion/shared";
import { createLogger } from "@usage-ingestion/shared/server";
import { evaluateBudgets } from "./budgets/evaluate-budgets.ts";
import { parseWorkerConfig } from "./env.ts";
import { pubSubRecordsFeed } from "./feed/records-feed.ts";
import { foldDue } from "./fold/fold-due.ts";
import {
  BUDGETS_FUNCTION_NAME,
  FOLD_FUNCTION_NAME,
  FUNCTION_NAME,
  WEBHOOK_DELIVERY_FUNCTION_NAME,
  WEBHOOK_DISPATCH_FUNCTION_NAME,
} from "./function-name.ts";
import { handleMessage, type PubSubEvent } from "./handler.ts";
import { outsideDomain } from "./outside-domain.ts";
import { commitsOn } from "./store/commits-transport.ts";
import { firestoreCustomPricingStore } from "./store/custom-pricing-store.ts";
import { firestoreDimensionsStore } from "./store/dimensions-store.ts";
import { firestoreCommitsOptions } from "./store/firestore-commits.ts";
import { firestoreRecordStore } from "./store/records.ts";
import { webhookFunctions } from "./webhooks/webhook-functions.ts";

/** The composition root: config parsed once, one Firestore client, the handler registered by name. */
const config = parseWorkerConfig(process.env);
const projectId = config.GOOGLE_CLOUD_PROJECT;
const universeDomain = config.GOOGLE_CLOUD_UNIVERSE_DOMAIN;
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
  // Stored records go to BigQuery through the records topic: the gateway's Publish call on HTTP/2, to the
  // endpoint the PubSub client resolves; or, PUBSUB_PUBLISH_TRANSPORT=client, the client's own publisher.
  // The universe domain is given to the client as it would read it, so that our own calls follow it too.
  feed: pubSubRecordsFeed(
    new PubSub({ ...(projectId ? { projectId } : {}), ...(universeDomain ? { universeDomain } : {}) }),
    {
      topic: config.RECORDS_TOPIC,
      transport: config.PUBSUB_PUBLISH_TRANSPORT,
      timeoutMs: config.RECORDS_PUBLISH_TIMEOUT_MS,
    },
  ),
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
    deps.logger.log(
      "INFO",
      `folded ${run.folded.length} days, hours and months and ${run.openHours.length} open hours of ${run.organizations} organizations`,
      {
        folded: run.folded.length,
        open_hours: run.openHours.length,
        deferred: run.deferred,
        organizations: run.organizations,
      },
    );
  }),
);

// The webhook functions, deployed from this same code (infra/modules/webhooks): delivery, one push per
// delivery; dispatch, a scheduled tick. Their clients are made on the first call, so the pricing function
// never opens them. Receivers on this machine only on the local stack; elsewhere public addresses only.
const webhooks = webhookFunctions(
  config,
  process.env.WEBHOOK_SECRET_KEY,
  deps.logger,
  localReceiversAllowed(process.env) ? "any" : "public",
);
functions.cloudEvent(WEBHOOK_DELIVERY_FUNCTION_NAME, (event: functions.CloudEvent<PubSubEvent["data"]>) =>
  outsideDomain(() => webhooks.deliver(event as PubSubEvent)),
);
functions.cloudEvent(WEBHOOK_DISPATCH_FUNCTION_NAME, () => outsideDomain(() => webhooks.dispatch()));

// The budget evaluation step, a function of its own from this same code too (infra/modules/worker): each
// tick reads every budget's spent and creates the outbox event of each crossing, once. The events this
// instance created or found are remembered across ticks, so it does not try them again.
let budgetsFirestore: Firestore | undefined;
const knownEvents = new Set<string>();
functions.cloudEvent(BUDGETS_FUNCTION_NAME, () =>
  outsideDomain(async () => {
    budgetsFirestore ??= new Firestore({ ...(projectId ? { projectId } : {}), useBigInt: true });
    const run = await evaluateBudgets(budgetsFirestore, new Date(), {
      limits: {
        maxDocuments: config.BUDGETS_MAX_DOCUMENTS,
        timeoutMs: config.BUDGETS_TIMEOUT_MS,
        maxGroups: DEFAULT_REPORT_LIMITS.maxGroups,
      },
      known: knownEvents,
    });
    for (const failure of run.failed) {
      deps.logger.log("ERROR", `budgets of ${failure.organization_id} not evaluated: ${failure.error}`, failure);
    }
    deps.logger.log("INFO", `evaluated ${run.budgets} budgets of ${run.organizations} organizations`, {
      budgets: run.budgets,
      organizations: run.organizations,
      events_created: run.created.length,
      failed: run.failed.length,
    });
  }),
);
