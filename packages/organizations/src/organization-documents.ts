/** An organization and its API keys as Firestore holds them: settings, dimensions, limits, OTLP. */
export type Status = "active" | "disabled";

/**
 * `ingest`: POST /usage/transactions and /v1/traces only. `read`: the report routes and the dashboard only.
 * `admin`: the management API of its own organization with the role `admin`, and the report routes (that
 * role may read costs); never ingestion nor members (docs/management-api.md).
 */
export const KEY_SCOPES = ["ingest", "read", "admin"] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

export interface ApiKeyDocument {
  organization_id: string;
  prefix: string;
  status: Status;
  created_at: string;
  /** Absent on keys made before scopes existed: those are `ingest` keys. */
  scope?: KeyScope;
  /** `key_` and the first 16 hex digits of the hash (apiKeyId); absent on older keys, which derive it. */
  id?: string;
  /** A name the creator gave; absent on older keys. */
  name?: string;
  /** Who made it, as the audit log names actors; absent on older keys. */
  created_by?: { type: string; id: string };
  /** When the gateway last saw it in use, written at most every few minutes per instance (may lag). */
  last_used_at?: string;
}

export interface OrganizationDocument {
  name: string;
  status: Status;
  created_at: string;
  /** The `context` keys reports group and filter on (set with `admin org dimensions set`). */
  dimensions?: string[];
  /** Rate limits of this organization where they differ from the gateway's defaults (`admin org limits set`). */
  limits?: OrganizationLimits;
  /** Where spans sent to `POST /v1/traces` carry the customer and the context (`admin org otel set`). */
  otel?: OrganizationOtelSettings;
  /** Whether it holds budgets (kept by `admin budget`): the evaluation step reads only those organizations. */
  has_budgets?: boolean;
}

/** Which span or resource attributes become a transaction's customer and context; absent, the defaults. */
export interface OrganizationOtelSettings {
  /** The attribute holding `billable_customer_id`; absent, the first of OTEL_DEFAULT_CUSTOMER_ATTRIBUTES. */
  customer_attribute?: string;
  /** Attributes copied into `context`: `name` (the key is the attribute's name) or `key=attribute`. */
  context_attributes?: string[];
}

/** The customer of a span whose organization named no attribute: the end user, else the service. */
export const OTEL_DEFAULT_CUSTOMER_ATTRIBUTES = ["enduser.id", "user.id", "service.name"] as const;

/** An organization's own rate limits; each one absent takes the gateway's default. */
export interface OrganizationLimits {
  /** Transactions a second the organization may send, all its keys together. */
  ingest_transactions_per_second?: number;
  /** Transactions it may send above that rate, over the burst window (10 s). */
  ingest_burst_transactions?: number;
  /** Report requests a minute, all its read keys together. */
  reports_per_minute?: number;
}

export const ORGANIZATION_LIMIT_NAMES = [
  "ingest_transactions_per_second",
  "ingest_burst_transactions",
  "reports_per_minute",
] as const satisfies ReadonlyArray<keyof OrganizationLimits>;
