import type { Firestore, QueryDocumentSnapshot } from "@google-cloud/firestore";
import { COLLECTIONS, DOCUMENT_PATHS } from "@usage-ingestion/shared";
import { isAlreadyExists } from "@usage-ingestion/shared/server";
import type { DeliveryQueue } from "./delivery-queue.ts";
import { DEFAULT_DELIVERY_TIMING, type DeliveryTiming, DISPATCH_BATCH } from "./delivery-timing.ts";
import { sweepDeliveries } from "./sweep-deliveries.ts";
import {
  type DeliveryDocument,
  eventProblem,
  MAX_WEBHOOKS_PER_ORGANIZATION,
  type WebhookDocument,
  webhookMessageId,
} from "./webhook-documents.ts";
import type { OutboxEvent } from "./webhook-events.ts";

export interface DispatchDeps {
  db: Firestore;
  queue: DeliveryQueue;
  now?: () => Date;
  timing?: DeliveryTiming;
  batchSize?: number;
  log?: (line: string) => void;
}

export interface DispatchRun {
  /** Events fanned out (their `dispatched_at` set). */
  dispatched: number;
  /** Deliveries made for them. */
  deliveries: number;
  /** Events not sent: not in the contract's shape, or naming another organization (`dispatch_error` says why). */
  refused: number;
  /** Deliveries queued again by the sweep, and those it marked failed (retry window over). */
  requeued: number;
  failed: number;
  /** Queueing that failed; the sweep queues those deliveries again later. */
  queueFailures: number;
}

/** The organization of a document under `organizations/{org}/...`. */
const organizationOf = (doc: QueryDocumentSnapshot) => doc.ref.parent.parent?.id as string;

/** An organization's active webhooks (at most MAX_WEBHOOKS_PER_ORGANIZATION exist). */
async function activeWebhooks(db: Firestore, organizationId: string): Promise<WebhookDocument[]> {
  const snap = await db
    .collection(DOCUMENT_PATHS.webhooks(organizationId))
    .where("status", "==", "active")
    .limit(MAX_WEBHOOKS_PER_ORGANIZATION)
    .get();
  return snap.docs.map((doc) => doc.data() as WebhookDocument);
}

/** Whether a webhook gets an event: subscribed to its type, and made before it (a new webhook gets no past events). */
export const webhookWants = (webhook: WebhookDocument, event: Pick<OutboxEvent, "type" | "created_at">) =>
  webhook.event_types.includes(event.type) && Date.parse(webhook.created_at) <= Date.parse(event.created_at);

export function newDelivery(
  organizationId: string,
  webhookId: string,
  event: Pick<OutboxEvent, "id" | "type">,
  now: Date,
  timing: DeliveryTiming,
): DeliveryDocument {
  return {
    id: webhookMessageId(event.id, webhookId),
    organization_id: organizationId,
    webhook_id: webhookId,
    event_id: event.id,
    event_type: event.type,
    status: "pending",
    created_at: now.toISOString(),
    window_started_at: now.toISOString(),
    sweep_at: new Date(now.getTime() + timing.sweepAfterMs).toISOString(),
    attempt_count: 0,
    queued_count: 1,
    last_attempt_at: null,
    last_status_code: null,
    last_error: null,
    delivered_at: null,
    failed_at: null,
  };
}

/**
 * The outbox's dispatch: each event not yet dispatched (a bounded batch, across organizations) gets one
 * delivery per active webhook of its organization that wants it, each delivery is queued on the
 * deliveries topic, and the event is marked dispatched. A delivery is created on condition that it does not
 * exist, with its sweep time set first, so a crash anywhere in between loses nothing and doubles nothing:
 * a run again finds the event undispatched and makes no second delivery, and a delivery made but never
 * queued is queued by the sweep. Then the sweep runs (sweep-deliveries.ts).
 */
export async function dispatchEvents(deps: DispatchDeps): Promise<DispatchRun> {
  const now = deps.now ?? (() => new Date());
  const timing = deps.timing ?? DEFAULT_DELIVERY_TIMING;
  const run: DispatchRun = { dispatched: 0, deliveries: 0, refused: 0, requeued: 0, failed: 0, queueFailures: 0 };
  const pending = await deps.db
    .collectionGroup(COLLECTIONS.events)
    .where("dispatched_at", "==", null)
    .limit(deps.batchSize ?? DISPATCH_BATCH)
    .get();
  const webhooksOf = new Map<string, Promise<WebhookDocument[]>>();
  for (const doc of pending.docs) {
    const organizationId = organizationOf(doc);
    if (!organizationId || doc.ref.parent.parent?.parent.id !== COLLECTIONS.organizations) continue;
    const problem = eventProblem(doc.data(), organizationId);
    if (problem) {
      // Never sent (another organization's data, or not an event); kept, and marked, so it does not block the outbox.
      await doc.ref.update({ dispatched_at: now().toISOString(), dispatch_error: problem });
      run.refused += 1;
      deps.log?.(`event ${doc.ref.path} not sent: ${problem}`);
      continue;
    }
    const event = { ...(doc.data() as OutboxEvent), id: doc.id };
    let webhooks = webhooksOf.get(organizationId);
    if (!webhooks) {
      webhooks = activeWebhooks(deps.db, organizationId);
      webhooksOf.set(organizationId, webhooks);
    }
    const wanting = (await webhooks).filter((webhook) => webhookWants(webhook, event));
    await Promise.all(
      wanting.map(async (webhook) => {
        const at = now();
        const ref = deps.db.doc(DOCUMENT_PATHS.webhookDelivery(organizationId, webhook.id, event.id));
        try {
          await ref.create(newDelivery(organizationId, webhook.id, event, at, timing));
        } catch (error) {
          // Made by an earlier run that stopped before marking the event: queued then, or by the sweep.
          if (isAlreadyExists(error)) return;
          throw error;
        }
        run.deliveries += 1;
        try {
          await deps.queue.queue({ organizationId, webhookId: webhook.id, eventId: event.id });
        } catch (error) {
          run.queueFailures += 1;
          deps.log?.(`could not queue delivery ${ref.path}; the sweep will: ${(error as Error).message}`);
        }
      }),
    );
    await doc.ref.update({ dispatched_at: now().toISOString() });
    run.dispatched += 1;
  }
  const swept = await sweepDeliveries({ ...deps, now, timing });
  run.requeued = swept.requeued;
  run.failed = swept.failed;
  run.queueFailures += swept.queueFailures;
  return run;
}
