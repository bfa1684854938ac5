import { RECORDS_TOPIC } from "@usage-ingestion/shared";
import {
  integerVar,
  logFormatVar,
  optionalStringVar,
  parseConfig,
  stringVar,
  transportVar,
  universeDomainVar,
} from "@usage-ingestion/shared/server";
import * as v from "valibot";

/** Every variable the worker reads; deployment sets these (infra tests hold the Terraform to this list). */
export const WorkerEnvSchema = v.object({
  GOOGLE_CLOUD_PROJECT: optionalStringVar(),
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
  /** The fold step: days and hours back kept folded into summaries, and days, hours and months folded in one run at most. */
  FOLD_LOOKBACK_DAYS: integerVar(35),
  FOLD_LOOKBACK_HOURS: integerVar(48),
  FOLD_MAX_PERIODS: integerVar(200),
  /** The evaluation step: documents one organization's budget spent may read in one run, and its time. */
  BUDGETS_MAX_DOCUMENTS: integerVar(200_000),
  BUDGETS_TIMEOUT_MS: integerVar(30_000),
  /** The records topic: every stored record is published there for BigQuery (docs/reports.md). */
  RECORDS_TOPIC: stringVar(RECORDS_TOPIC),
  /** `wire`: the shared Publish call for the records feed (docs/decisions/0017); `client`: @google-cloud/pubsub's, the fallback. */
  PUBSUB_PUBLISH_TRANSPORT: transportVar(),
  /** Bound on publishing one record; past it the delivery fails and Pub/Sub redelivers. */
  RECORDS_PUBLISH_TIMEOUT_MS: integerVar(10_000),
  LOG_FORMAT: logFormatVar(),
  /** Webhooks: the deliveries topic the dispatch and the sweep queue onto. */
  WEBHOOK_DELIVERIES_TOPIC: stringVar("usage-webhook-deliveries"),
  /** Bound on one POST to a receiver, its answer included. */
  WEBHOOK_TIMEOUT_MS: integerVar(10_000),
  /** A pending delivery untouched this long is queued again by the sweep (above Pub/Sub's maximum backoff). */
  WEBHOOK_SWEEP_AFTER_MS: integerVar(900_000),
  /** How long a delivery is retried before it is marked failed: at least a day. */
  WEBHOOK_RETRY_WINDOW_MS: integerVar(86_400_000, 86_400_000),
});

export type WorkerConfig = v.InferOutput<typeof WorkerEnvSchema>;

export const parseWorkerConfig = (env: Record<string, string | undefined>): WorkerConfig =>
  parseConfig(WorkerEnvSchema, env);
