import { BUDGET_EVENT_TYPES, type EventDocument } from "@usage-ingestion/budgets";

/**
 * Every event the outbox (`organizations/{org}/events/{event_id}`) may hold and webhooks may subscribe
 * to: the budgets' crossings, and `reconciliation.drift`, a day whose difference with a vendor's own report
 * passed the organization's threshold (written by the reconciliation job, docs/reconciliation.md).
 */
export const RECONCILIATION_EVENT_TYPES = ["reconciliation.drift"] as const;
export const WEBHOOK_EVENT_TYPES = [...BUDGET_EVENT_TYPES, ...RECONCILIATION_EVENT_TYPES] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** An outbox event of any type: a budget's, or another with its own `data` naming its organization. */
export type OutboxEvent =
  | EventDocument
  | {
      id: string;
      type: (typeof RECONCILIATION_EVENT_TYPES)[number];
      created_at: string;
      data: { organization_id: string } & Record<string, unknown>;
      dispatched_at: string | null;
    };
