import {
  integerVar,
  logFormatVar,
  optionalStringVar,
  parseConfig,
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
  /** The fold step: days and hours back kept folded into summaries, and days and hours folded in one run at most. */
  FOLD_LOOKBACK_DAYS: integerVar(35),
  FOLD_LOOKBACK_HOURS: integerVar(48),
  FOLD_MAX_PERIODS: integerVar(200),
  LOG_FORMAT: logFormatVar(),
});

export type WorkerConfig = v.InferOutput<typeof WorkerEnvSchema>;

export const parseWorkerConfig = (env: Record<string, string | undefined>): WorkerConfig =>
  parseConfig(WorkerEnvSchema, env);
