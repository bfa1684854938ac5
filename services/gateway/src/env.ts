import { DEFAULT_DATABASE, ORGANIZATION_LIMIT_DEFAULTS_ENV } from "@usage-ingestion/organizations";
import { DEVELOPMENT_PAGE_TOKEN_KEY, MIN_PAGE_TOKEN_KEY_BYTES } from "@usage-ingestion/records";
import type { ReportLimits } from "@usage-ingestion/reports";
import {
  ConfigError,
  integerVar,
  logFormatVar,
  optionalStringVar,
  parseConfig,
  stringVar,
  transportVar,
  universeDomainVar,
} from "@usage-ingestion/shared/server";
import * as v from "valibot";
import { SIGN_IN_ENV, signInConfig } from "./auth/session/sign-in-config.ts";
import type { RateLimitConfig } from "./limits/rate-limits.ts";
import type { ReportsAtOnce } from "./limits/reports-at-once.ts";

/** One report's ceilings (documents read, time) and how many run at once. */
export interface ReportSettings extends ReportLimits {
  atOnce: ReportsAtOnce;
  /** The groups all reports running on one instance may hold together; past it, 429 (GroupPool). */
  groupsPerInstance: number;
}

/** What one gateway serves: ingestion, the reports and dashboard, or both (one image, two deployments). */
export const GATEWAY_ROLES = ["ingest", "reports", "both"] as const;
export type GatewayRole = (typeof GATEWAY_ROLES)[number];

/** Every variable the gateway reads; deployment sets these (infra tests hold the Terraform to this list). */
export const GatewayEnvSchema = v.object({
  PORT: integerVar(8080),
  /** `ingest`: POST /usage/transactions; `reports`: the report routes and the dashboard; `both`. */
  GATEWAY_ROLE: v.optional(v.picklist(GATEWAY_ROLES, 'must be "ingest", "reports" or "both"'), "both"),
  GOOGLE_CLOUD_PROJECT: optionalStringVar(),
  /** The Google Cloud universe the clients (and our own calls) address; `googleapis.com` when unset. */
  GOOGLE_CLOUD_UNIVERSE_DOMAIN: universeDomainVar(),
  PUBSUB_TOPIC: stringVar("usage-transactions"),
  /** `wire`: our own Publish call (docs/decisions/0016); `client`: @google-cloud/pubsub's, the fallback. */
  PUBSUB_PUBLISH_TRANSPORT: transportVar(),
  /** The Firestore database holding `api_keys` (docs/decisions/0010); organizations stay with the records. */
  KEYS_DATABASE: stringVar(DEFAULT_DATABASE),
  PUBLISH_TIMEOUT_MS: integerVar(10_000),
  /** Pub/Sub batching window: a request's transactions leave together within it. */
  PUBLISH_BATCH_MAX_MS: integerVar(5, 0),
  KEY_LOOKUP_TIMEOUT_MS: integerVar(5_000),
  KEY_CACHE_TTL_MS: integerVar(10_000, 0),
  KEY_CACHE_MAX_ENTRIES: integerVar(10_000),
  /**
   * How long past KEY_CACHE_TTL_MS a key found active is still accepted while the key store cannot answer
   * (0: never): tenants keep sending through a Firestore outage; a key revoked just before one is accepted
   * up to that much longer (docs/security.md).
   */
  KEY_SERVE_STALE_MS: integerVar(300_000, 0),
  SHUTDOWN_TIMEOUT_MS: integerVar(25_000),
  /**
   * Where OTLP's model-call spans are paired so that one call is billed once (decisions/0034): `shared`,
   * in Firestore for every instance; `instance`, in this instance's memory (exact only when one instance
   * takes all of an organization's exports).
   */
  OTLP_CALL_PAIRING: v.optional(v.picklist(["shared", "instance"], 'must be "shared" or "instance"'), "shared"),
  OTLP_PAIRING_TIMEOUT_MS: integerVar(5_000),
  /** The Firestore database of the shared pairing's slots (Terraform: `otlp-pairing`, the ingest gateway's only writable one). */
  OTLP_PAIRING_DATABASE: stringVar(DEFAULT_DATABASE),
  /** Rate limits (per instance): an organization's own, set with `admin org limits set`, win over these. */
  ...ORGANIZATION_LIMIT_DEFAULTS_ENV,
  RATE_LIMIT_KEY_TRANSACTIONS_PER_SECOND: integerVar(500),
  RATE_LIMIT_KEY_BURST_TRANSACTIONS: integerVar(5_000, 0),
  RATE_LIMIT_KEY_REPORTS_PER_MINUTE: integerVar(60),
  RATE_LIMIT_UNKNOWN_KEYS_PER_MINUTE: integerVar(60),
  /**
   * The proxies in front of the gateway that append to X-Forwarded-For, whose hops are trusted for the
   * client's address: 1 on Cloud Run (its front end), 2 behind the edge module's load balancer (which
   * appends the client's address and then its own); 0 trusts none (the socket's peer is the client).
   */
  TRUST_PROXY_HOPS: integerVar(1, 0),
  /** One report's ceilings: past any it is answered 422 report_too_large. */
  REPORT_MAX_DOCUMENTS: integerVar(50_000),
  REPORT_TIMEOUT_MS: integerVar(15_000),
  REPORT_MAX_GROUPS: integerVar(50_000),
  /** The groups the reports running at once on an instance hold together (about 1 KB each); beyond, 429. */
  REPORT_MAX_GROUPS_PER_INSTANCE: integerVar(60_000),
  /**
   * Reports running at once, per instance, per organization (below the instance's, so others always find
   * a slot) and per key; beyond, 429.
   */
  REPORTS_AT_ONCE_PER_INSTANCE: integerVar(8),
  REPORTS_AT_ONCE_PER_ORGANIZATION: integerVar(4),
  REPORTS_AT_ONCE_PER_KEY: integerVar(4),
  /**
   * Signs the page tokens of GET /usage/records (HMAC-SHA256), at least 32 bytes; every instance of the
   * reports needs the same. Unset: the public development key, for the local stack only (Terraform sets it).
   */
  PAGE_TOKEN_KEY: optionalStringVar(),
  LOG_FORMAT: logFormatVar(),
  /**
   * The management API's webhooks (docs/management-api.md): the key that seals their secrets, as the worker
   * and the command line have it (a secret: Terraform sets it from Secret Manager), and the deliveries topic
   * replays are queued on. Without the key, webhooks are listed, changed and replayed, but creating one or
   * rotating its secret is 409 saying why.
   */
  WEBHOOK_SECRET_KEY: optionalStringVar(),
  WEBHOOK_DELIVERIES_TOPIC: stringVar("usage-webhook-deliveries"),
  /** People's sign-in (docs/sign-in.md): all five set, or none (then /auth and /v1/me answer 404). */
  ...SIGN_IN_ENV,
});

export type GatewayConfig = v.InferOutput<typeof GatewayEnvSchema>;

/** Sign-in as the gateway uses it, or undefined when it is off; a ConfigError when half set. */
export const signInConfigOf = (config: GatewayConfig) => signInConfig(config);

/** The rate limits of a configuration, as the limiters take them. */
export const rateLimitConfig = (config: GatewayConfig): RateLimitConfig => ({
  organization: {
    ingestPerSecond: config.RATE_LIMIT_ORG_TRANSACTIONS_PER_SECOND,
    ingestBurst: config.RATE_LIMIT_ORG_BURST_TRANSACTIONS,
    reportsPerMinute: config.RATE_LIMIT_ORG_REPORTS_PER_MINUTE,
  },
  key: {
    ingestPerSecond: config.RATE_LIMIT_KEY_TRANSACTIONS_PER_SECOND,
    ingestBurst: config.RATE_LIMIT_KEY_BURST_TRANSACTIONS,
    reportsPerMinute: config.RATE_LIMIT_KEY_REPORTS_PER_MINUTE,
  },
  unknownKeysPerMinute: config.RATE_LIMIT_UNKNOWN_KEYS_PER_MINUTE,
});

/** The report ceilings of a configuration. */
export const reportSettings = (config: GatewayConfig): ReportSettings => ({
  maxDocuments: config.REPORT_MAX_DOCUMENTS,
  timeoutMs: config.REPORT_TIMEOUT_MS,
  maxGroups: config.REPORT_MAX_GROUPS,
  groupsPerInstance: config.REPORT_MAX_GROUPS_PER_INSTANCE,
  atOnce: {
    perInstance: config.REPORTS_AT_ONCE_PER_INSTANCE,
    perOrganization: config.REPORTS_AT_ONCE_PER_ORGANIZATION,
    perKey: config.REPORTS_AT_ONCE_PER_KEY,
  },
});

/** The key page tokens are signed with: the configured one, or the development key when none is. */
export const pageTokenKey = (config: GatewayConfig): string => config.PAGE_TOKEN_KEY ?? DEVELOPMENT_PAGE_TOKEN_KEY;

export function parseGatewayConfig(env: Record<string, string | undefined>): GatewayConfig {
  const config = parseConfig(GatewayEnvSchema, env);
  // Checked here rather than in the schema, whose message would quote the value: a key is never logged.
  if (Buffer.byteLength(pageTokenKey(config)) < MIN_PAGE_TOKEN_KEY_BYTES) {
    throw new ConfigError(
      `Invalid configuration: PAGE_TOKEN_KEY must be at least ${MIN_PAGE_TOKEN_KEY_BYTES} bytes (openssl rand -base64 32); its value is not shown`,
    );
  }
  if (config.REPORTS_AT_ONCE_PER_ORGANIZATION >= config.REPORTS_AT_ONCE_PER_INSTANCE) {
    throw new ConfigError(
      `Invalid configuration: REPORTS_AT_ONCE_PER_ORGANIZATION (${config.REPORTS_AT_ONCE_PER_ORGANIZATION}) must be below REPORTS_AT_ONCE_PER_INSTANCE (${config.REPORTS_AT_ONCE_PER_INSTANCE}), so that one organization never holds every slot`,
    );
  }
  return config;
}

/** Whether a gateway of `role` serves ingestion, and whether it serves the reports. */
export const servesIngestion = (role: GatewayRole) => role !== "reports";
export const servesReports = (role: GatewayRole) => role !== "ingest";
