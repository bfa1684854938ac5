import { integerVar, logFormatVar, optionalStringVar, parseConfig, stringVar } from "@usage-ingestion/shared/server";
import * as v from "valibot";

/** Every variable the gateway reads; deployment sets these (infra tests hold the Terraform to this list). */
export const GatewayEnvSchema = v.object({
  PORT: integerVar(8080),
  GOOGLE_CLOUD_PROJECT: optionalStringVar(),
  PUBSUB_TOPIC: stringVar("usage-transactions"),
  PUBLISH_TIMEOUT_MS: integerVar(10_000),
  /** Pub/Sub batching window: a request's transactions leave together within it. */
  PUBLISH_BATCH_MAX_MS: integerVar(5, 0),
  KEY_LOOKUP_TIMEOUT_MS: integerVar(5_000),
  KEY_CACHE_TTL_MS: integerVar(10_000, 0),
  KEY_CACHE_MAX_ENTRIES: integerVar(10_000),
  SHUTDOWN_TIMEOUT_MS: integerVar(25_000),
  LOG_FORMAT: logFormatVar(),
});

export type GatewayConfig = v.InferOutput<typeof GatewayEnvSchema>;

export const parseGatewayConfig = (env: Record<string, string | undefined>): GatewayConfig =>
  parseConfig(GatewayEnvSchema, env);
