import { firestoreDimensionsStore } from "@usage-ingestion/organizations";
import { firestoreCustomPricingStore } from "@usage-ingestion/prices";
import { firestoreRecordStore, handleMessage } from "@usage-ingestion/records";
import { parseTraceparent, TRACEPARENT_ATTRIBUTE } from "@usage-ingestion/shared";
import {
  commitsOn,
  createLogger,
  firestoreCommitsOptions,
  integerVar,
  parseConfig,
  transportVar,
  universeDomainVar,
} from "@usage-ingestion/shared/server";
import * as v from "valibot";
import { COMMON_ENV } from "./common-env.ts";
import { firestoreClient } from "./firestore-client.ts";
import type { PushJob } from "./job.ts";
import { RECORDS_FEED_ENV, recordsFeed } from "./records-feed.ts";

export const PRICE_USAGE_ENV = {
  ...COMMON_ENV,
  /** The Google Cloud universe the clients (and our own commits) address; `googleapis.com` when unset. */
  GOOGLE_CLOUD_UNIVERSE_DOMAIN: universeDomainVar(),
  /** `wire`: our own Commit call (docs/decisions/0016); `client`: @google-cloud/firestore's, the fallback. */
  FIRESTORE_COMMIT_TRANSPORT: transportVar(),
  /** How long an organization's custom prices are cached: a change reaches pricing within this time. */
  CUSTOM_PRICING_CACHE_TTL_MS: integerVar(10_000, 0),
  /** How long an organization's declared dimensions are cached: new cells carry a change within this time. */
  DIMENSIONS_CACHE_TTL_MS: integerVar(10_000, 0),
  /** Bound on each Firestore call; past it the delivery fails and Pub/Sub redelivers. */
  FIRESTORE_TIMEOUT_MS: integerVar(10_000),
  ...RECORDS_FEED_ENV,
};
const PriceUsageEnvSchema = v.object(PRICE_USAGE_ENV);
type PriceUsageConfig = v.InferOutput<typeof PriceUsageEnvSchema>;

/**
 * Prices each queued transaction and stores its record exactly once (the push subscription of the
 * transactions topic): `handleMessage` of the records package, on one Firestore client, our own commits
 * and the records feed.
 */
export const priceUsage: PushJob<PriceUsageConfig> = {
  name: "priceUsage",
  trigger: "push",
  config: (env) => parseConfig(PriceUsageEnvSchema, env),
  start(config) {
    const projectId = config.GOOGLE_CLOUD_PROJECT;
    const firestore = firestoreClient(projectId);
    // Records are committed on a channel of our own (shared/src/server/firestore/), to the same database
    // and endpoint, found from the same settings once here; or, FIRESTORE_COMMIT_TRANSPORT=client, by the client.
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
    const feed = recordsFeed(config, projectId, config.GOOGLE_CLOUD_UNIVERSE_DOMAIN);
    const deps = {
      records: firestoreRecordStore(firestore, commits, config.FIRESTORE_TIMEOUT_MS),
      customPricing: firestoreCustomPricingStore(
        firestore,
        config.CUSTOM_PRICING_CACHE_TTL_MS,
        config.FIRESTORE_TIMEOUT_MS,
      ),
      dimensions: firestoreDimensionsStore(firestore, config.DIMENSIONS_CACHE_TTL_MS, config.FIRESTORE_TIMEOUT_MS),
      feed,
      logger: createLogger(config.LOG_FORMAT, projectId),
    };
    return {
      async run(event) {
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
      },
      async close() {
        await feed.flush();
        await firestore.terminate();
      },
    };
  },
};
