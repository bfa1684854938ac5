/** Firestore layout shared by the gateway, the worker and the admin command line. */
export const COLLECTIONS = {
  apiKeys: "api_keys",
  organizations: "organizations",
  transactions: "transactions",
  rejectedMessages: "rejected_messages",
  customPricing: "custom_pricing",
  platformPricing: "platform_pricing",
  costRollups: "cost_rollups",
  unpricedRollups: "unpriced_rollups",
  transactionIds: "transaction_ids",
  events: "events",
  webhooks: "webhooks",
  webhookDeliveries: "webhook_deliveries",
  webhookAttempts: "webhook_attempts",
  budgets: "budgets",
} as const;

/** Document paths, for `firestore.doc(path)`: the only place they are spelled out. */
export const DOCUMENT_PATHS = {
  transactions: (organizationId: string) =>
    `${COLLECTIONS.organizations}/${organizationId}/${COLLECTIONS.transactions}`,
  transaction: (organizationId: string, messageId: string) =>
    `${DOCUMENT_PATHS.transactions(organizationId)}/${messageId}`,
  costRollups: (organizationId: string) => `${COLLECTIONS.organizations}/${organizationId}/${COLLECTIONS.costRollups}`,
  unpricedRollups: (organizationId: string) =>
    `${COLLECTIONS.organizations}/${organizationId}/${COLLECTIONS.unpricedRollups}`,
  transactionId: (organizationId: string, idHash: string) =>
    `${COLLECTIONS.organizations}/${organizationId}/${COLLECTIONS.transactionIds}/${idHash}`,
  rejectedMessage: (messageId: string) => `${COLLECTIONS.rejectedMessages}/${messageId}`,
  customPricing: (organizationId: string) => `${COLLECTIONS.customPricing}/${organizationId}`,
  /** The platform-wide price list: one document. */
  platformPricing: `${COLLECTIONS.platformPricing}/current`,
  organization: (organizationId: string) => `${COLLECTIONS.organizations}/${organizationId}`,
  budgets: (organizationId: string) => `${COLLECTIONS.organizations}/${organizationId}/${COLLECTIONS.budgets}`,
  budget: (organizationId: string, budgetId: string) => `${DOCUMENT_PATHS.budgets(organizationId)}/${budgetId}`,
  apiKey: (keyHash: string) => `${COLLECTIONS.apiKeys}/${keyHash}`,
  /** The event outbox (budget alerts), read by webhook delivery. */
  events: (organizationId: string) => `${COLLECTIONS.organizations}/${organizationId}/${COLLECTIONS.events}`,
  event: (organizationId: string, eventId: string) => `${DOCUMENT_PATHS.events(organizationId)}/${eventId}`,
  webhooks: (organizationId: string) => `${COLLECTIONS.organizations}/${organizationId}/${COLLECTIONS.webhooks}`,
  webhook: (organizationId: string, webhookId: string) => `${DOCUMENT_PATHS.webhooks(organizationId)}/${webhookId}`,
  /** One delivery per (webhook, event), named by the event's id under its webhook. */
  webhookDeliveries: (organizationId: string, webhookId: string) =>
    `${DOCUMENT_PATHS.webhook(organizationId, webhookId)}/${COLLECTIONS.webhookDeliveries}`,
  webhookDelivery: (organizationId: string, webhookId: string, eventId: string) =>
    `${DOCUMENT_PATHS.webhookDeliveries(organizationId, webhookId)}/${eventId}`,
  webhookAttempts: (organizationId: string, webhookId: string, eventId: string) =>
    `${DOCUMENT_PATHS.webhookDelivery(organizationId, webhookId, eventId)}/${COLLECTIONS.webhookAttempts}`,
};

export type Status = "active" | "disabled";

/** `ingest`: POST /usage/transactions only. `read`: the report routes and the dashboard only. */
export const KEY_SCOPES = ["ingest", "read"] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

export interface ApiKeyDocument {
  organization_id: string;
  prefix: string;
  status: Status;
  created_at: string;
  /** Absent on keys made before scopes existed: those are `ingest` keys. */
  scope?: KeyScope;
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
