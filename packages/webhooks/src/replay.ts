import { FieldValue, type Firestore } from "@google-cloud/firestore";
import { type ChangeContext, operatorChange, recordChange } from "@usage-ingestion/audit";
import { DOCUMENT_PATHS, NotFoundError, UserError } from "@usage-ingestion/shared";
import { isAlreadyExists } from "@usage-ingestion/shared/server";
import type { DeliveryQueue } from "./delivery-queue.ts";
import { DEFAULT_DELIVERY_TIMING, type DeliveryTiming } from "./delivery-timing.ts";
import { newDelivery } from "./dispatch-events.ts";
import { type DeliveryDocument, webhookMessageId } from "./webhook-documents.ts";
import type { OutboxEvent } from "./webhook-events.ts";
import { getWebhook, listWebhooks } from "./webhook-store.ts";
import { isDocumentId } from "./webhook-view.ts";

export interface ReplayDeps {
  db: Firestore;
  queue: DeliveryQueue;
  now?: Date;
  timing?: DeliveryTiming;
  /** Who replays; absent, an operator of unknown name. Recorded as `webhook.delivery_replayed`. */
  change?: ChangeContext;
}

/**
 * Queues one delivery again, whatever its state: pending again with a fresh retry window, the same
 * `webhook-id` (a receiver that deduplicates sees it is the same event). Returns the delivery's id.
 */
export async function replayDelivery(
  deps: ReplayDeps,
  organizationId: string,
  webhookId: string,
  eventId: string,
): Promise<string> {
  await getWebhook(deps.db, organizationId, webhookId);
  const now = deps.now ?? new Date();
  const timing = deps.timing ?? DEFAULT_DELIVERY_TIMING;
  const absent = () => new NotFoundError(`webhook "${webhookId}" has no delivery of event "${eventId}"`);
  if (!isDocumentId(eventId)) throw absent();
  const ref = deps.db.doc(DOCUMENT_PATHS.webhookDelivery(organizationId, webhookId, eventId));
  const delivery = await deps.db.runTransaction(async (transaction) => {
    const snap = await transaction.get(ref);
    if (!snap.exists) throw absent();
    const { leased_until } = snap.data() as DeliveryDocument;
    // An attempt in flight keeps its lease: the queued message waits for it instead of posting beside it.
    const leased = typeof leased_until === "string" && Date.parse(leased_until) > now.getTime();
    transaction.update(ref, {
      status: "pending",
      window_started_at: now.toISOString(),
      sweep_at: new Date(now.getTime() + timing.sweepAfterMs).toISOString(),
      ...(leased ? {} : { leased_until: FieldValue.delete() }),
      failed_at: null,
      queued_count: FieldValue.increment(1),
    });
    recordChange(
      transaction,
      deps.db,
      organizationId,
      deps.change ?? operatorChange(),
      {
        action: "webhook.delivery_replayed",
        target: { type: "webhook_delivery", id: (snap.data() as DeliveryDocument).id },
      },
      now,
    );
    return snap.data() as DeliveryDocument;
  });
  await deps.queue.queue({ organizationId, webhookId, eventId });
  return delivery.id;
}

/**
 * Queues an event again to every active webhook subscribed to its type: its existing deliveries are
 * replayed, and a webhook without one (made after the event) gets a new one.
 */
export async function replayEvent(deps: ReplayDeps, organizationId: string, eventId: string): Promise<string[]> {
  const snap = await deps.db.doc(DOCUMENT_PATHS.event(organizationId, eventId)).get();
  if (!snap.exists) throw new UserError(`organization "${organizationId}" has no event "${eventId}"`);
  const event = { ...(snap.data() as OutboxEvent), id: eventId };
  const now = deps.now ?? new Date();
  const timing = deps.timing ?? DEFAULT_DELIVERY_TIMING;
  const webhooks = (await listWebhooks(deps.db, organizationId)).filter(
    (webhook) => webhook.status === "active" && webhook.event_types.includes(event.type),
  );
  if (webhooks.length === 0) throw new UserError(`no active webhook of "${organizationId}" takes ${event.type} events`);
  const replayed: string[] = [];
  for (const webhook of webhooks) {
    const ref = deps.db.doc(DOCUMENT_PATHS.webhookDelivery(organizationId, webhook.id, eventId));
    const created = await ref.create(newDelivery(organizationId, webhook.id, event, now, timing)).then(
      () => true,
      (error: unknown) => {
        if (isAlreadyExists(error)) return false;
        throw error;
      },
    );
    if (created) {
      await deps.queue.queue({ organizationId, webhookId: webhook.id, eventId });
      replayed.push(webhookMessageId(eventId, webhook.id));
    } else {
      replayed.push(await replayDelivery(deps, organizationId, webhook.id, eventId));
    }
  }
  return replayed;
}
