import { BUDGET_EVENT_TYPES } from "@usage-ingestion/budgets";
import * as v from "valibot";
import { type OutboxEvent, RECONCILIATION_EVENT_TYPES, type WebhookEventType } from "./webhook-events.ts";

/**
 * Outbox events and their webhooks: the event outbox the budget evaluation writes
 * (`organizations/{org}/events/{event_id}`), each organization's webhooks, and one delivery per
 * (webhook, event) with its attempts. docs/webhooks.md describes the bodies receivers get. The event
 * types and the outbox document are the budgets' (budgets/budget-events.ts).
 *
 * What the dispatch checks of an event before sending it anywhere: its type, its time, and that its data
 * names the budget and the organization it sits under. The rest of `data` goes out as written.
 */
export const EventDocumentSchema = v.variant("type", [
  v.object({
    type: v.picklist(BUDGET_EVENT_TYPES),
    created_at: v.pipe(v.string(), v.isoTimestamp()),
    data: v.looseObject({ budget_id: v.pipe(v.string(), v.minLength(1)), organization_id: v.string() }),
  }),
  v.object({
    type: v.picklist(RECONCILIATION_EVENT_TYPES),
    created_at: v.pipe(v.string(), v.isoTimestamp()),
    data: v.looseObject({
      vendor: v.pipe(v.string(), v.minLength(1)),
      day: v.pipe(v.string(), v.isoDate()),
      organization_id: v.string(),
    }),
  }),
]);

/** Why an event in `organizationId`'s outbox cannot be sent, or undefined when it can. */
export function eventProblem(event: unknown, organizationId: string): string | undefined {
  const parsed = v.safeParse(EventDocumentSchema, event);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    return `${issue.path?.map((item) => String(item.key)).join(".") ?? "event"}: ${issue.message}`;
  }
  if (parsed.output.data.organization_id !== organizationId) {
    return `data.organization_id is "${parsed.output.data.organization_id}", not the outbox's organization`;
  }
  return undefined;
}

/** What a receiver gets: the Standard Webhooks payload shape. */
export interface WebhookBody {
  type: WebhookEventType;
  timestamp: string;
  data: OutboxEvent["data"];
}

export const webhookBody = (event: Pick<OutboxEvent, "type" | "created_at" | "data">): WebhookBody => ({
  type: event.type,
  timestamp: event.created_at,
  data: event.data,
});

/** The `webhook-id` header: the event and the webhook, the same on every attempt, so receivers can dedupe. */
export const webhookMessageId = (eventId: string, webhookId: string) => `${eventId}.${webhookId}`;

/**
 * Whether webhook receivers may be on this machine (and over http): only on the local stack, which the
 * emulator's variable marks. The command line checks it when a URL is registered, the delivery function
 * at start-up for where it connects.
 */
export const localReceiversAllowed = (env: Record<string, string | undefined>): boolean =>
  Boolean(env.FIRESTORE_EMULATOR_HOST);

/**
 * Networks a webhook receiver may not be on: this machine, private networks, link-local (the metadata
 * server), shared, documentation, benchmarking, multicast and reserved ranges, IPv4-mapped and NAT64
 * addresses. The command line refuses a URL naming one; the delivery function refuses to connect to one,
 * whatever name resolved to it.
 */
export const NON_PUBLIC_NETWORKS: readonly string[] = [
  "0.0.0.0/8",
  "10.0.0.0/8",
  "100.64.0.0/10",
  "127.0.0.0/8",
  "169.254.0.0/16",
  "172.16.0.0/12",
  "192.0.0.0/24",
  "192.0.2.0/24",
  "192.168.0.0/16",
  "198.18.0.0/15",
  "198.51.100.0/24",
  "203.0.113.0/24",
  "224.0.0.0/4",
  "240.0.0.0/4",
  "::/127",
  "fc00::/7",
  "fe80::/10",
  "ff00::/8",
  "::ffff:0:0/96",
  "64:ff9b::/96",
];

/** Webhook bounds: URL length, webhooks per organization. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;
export const MAX_WEBHOOKS_PER_ORGANIZATION = 20;
/** Secrets kept on a webhook at once (the current one and those still in their overlap window). */
export const MAX_WEBHOOK_SECRETS = 5;

export type WebhookStatus = "active" | "disabled";

/** A signing secret, encrypted (AES-256-GCM); `expires_at` is set when a newer one replaced it. */
export interface WebhookSecretDocument {
  encrypted: string;
  /** The secret's first characters after `whsec_`, to tell secrets apart in listings. */
  prefix: string;
  created_at: string;
  expires_at: string | null;
}

export interface WebhookDocument {
  id: string;
  url: string;
  event_types: WebhookEventType[];
  status: WebhookStatus;
  created_at: string;
  description: string | null;
  /** Newest first. */
  secrets: WebhookSecretDocument[];
}

export type DeliveryStatus = "pending" | "delivered" | "failed";

/**
 * One event for one webhook, at `webhooks/{webhook_id}/webhook_deliveries/{event_id}`. `sweep_at` is
 * present while the delivery is pending: the sweep queues it again when it is reached (nothing touched it).
 */
export interface DeliveryDocument {
  id: string;
  organization_id: string;
  webhook_id: string;
  event_id: string;
  event_type: WebhookEventType;
  status: DeliveryStatus;
  created_at: string;
  /** Retries run for at least a day from here (reset by a replay). */
  window_started_at: string;
  sweep_at?: string;
  /** An attempt in flight holds the delivery until then, so two pushes never post at once. */
  leased_until?: string;
  attempt_count: number;
  queued_count: number;
  last_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: string | null;
  failed_at: string | null;
}

export interface DeliveryAttemptDocument {
  attempted_at: string;
  /** The receiver's HTTP status, or null when none came (time-out, refused connection). */
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  /** The first bytes of the receiver's answer. */
  response_excerpt: string | null;
}
