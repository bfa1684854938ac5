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
  /** Each organization's vendor connections for reconciliation, one document per vendor. */
  connections: "connections",
  /** Each organization's comparisons with its vendors' reports, one per vendor, day and model. */
  reconciliations: "reconciliations",
  /** Each organization's reconciliation runs (asked for, or the daily one), their state and outcome. */
  reconciliationRuns: "reconciliation_runs",
  /** Settings of an organization kept apart from its document, one document each (`reconciliation`). */
  settings: "settings",
  /** Under each organization, in the records database and (for key changes) in the keys database. */
  auditLog: "audit_log",
  /** Under each organization: what is known of recent OTLP spans, so one call is billed once (0034). */
  otlpSpanSlots: "otlp_span_slots",
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
  /** `slotId`: a hash of the span's trace and span ids (which OTLP/JSON does not hold to hex). */
  otlpSpanSlot: (organizationId: string, slotId: string) =>
    `${COLLECTIONS.organizations}/${organizationId}/${COLLECTIONS.otlpSpanSlots}/${slotId}`,
  connections: (organizationId: string) => `${COLLECTIONS.organizations}/${organizationId}/${COLLECTIONS.connections}`,
  connection: (organizationId: string, vendor: string) => `${DOCUMENT_PATHS.connections(organizationId)}/${vendor}`,
  /** `{vendor}_{day}_{model hash}`: one vendor's days read in order by document id, with no index. */
  reconciliations: (organizationId: string) =>
    `${COLLECTIONS.organizations}/${organizationId}/${COLLECTIONS.reconciliations}`,
  reconciliation: (organizationId: string, rowId: string) =>
    `${DOCUMENT_PATHS.reconciliations(organizationId)}/${rowId}`,
  reconciliationRuns: (organizationId: string) =>
    `${COLLECTIONS.organizations}/${organizationId}/${COLLECTIONS.reconciliationRuns}`,
  reconciliationRun: (organizationId: string, runId: string) =>
    `${DOCUMENT_PATHS.reconciliationRuns(organizationId)}/${runId}`,
  /** The organization's reconciliation tolerance and drift threshold; absent, the defaults. */
  reconciliationSettings: (organizationId: string) =>
    `${COLLECTIONS.organizations}/${organizationId}/${COLLECTIONS.settings}/reconciliation`,
};
