import { type DocumentReference, FieldValue, type Firestore } from "@google-cloud/firestore";
import { COLLECTIONS, DOCUMENT_PATHS } from "@usage-ingestion/shared";
import type { DeliveryRef } from "./delivery-queue.ts";
import { DEFAULT_DELIVERY_TIMING, type DeliveryTiming, leaseMs } from "./delivery-timing.ts";
import { type PostOutcome, postWebhook, type ReceiverAddresses } from "./post-webhook.ts";
import type { SecretBox } from "./secret-box.ts";
import { signDelivery } from "./signing.ts";
import { failedDelivery } from "./sweep-deliveries.ts";
import {
  type DeliveryAttemptDocument,
  type DeliveryDocument,
  type WebhookDocument,
  webhookBody,
  webhookMessageId,
} from "./webhook-documents.ts";
import type { OutboxEvent } from "./webhook-events.ts";

export interface DeliverDeps {
  db: Firestore;
  box: SecretBox;
  now?: () => Date;
  timing?: DeliveryTiming;
  /** Which receiver addresses a POST may reach: public ones (the default), or any on the local stack. */
  receivers?: ReceiverAddresses;
}

/** `delivered` and `failed` end the delivery; `skipped`: nothing to do (done already, or in flight elsewhere). */
export type DeliverOutcome = "delivered" | "failed" | "skipped";

/** Thrown when an attempt failed and its retry window is not over: Pub/Sub retries the push with backoff. */
export class AttemptFailed extends Error {
  override name = "AttemptFailed";
}

/**
 * One attempt at a delivery, as the delivery function runs it for each push. The attempt first takes the
 * delivery's lease (a transaction: pending, and no other attempt in flight), so a push repeated by Pub/Sub
 * and one queued by the sweep never post at once, and a delivered one is never posted again. The body is
 * the event's, signed with every secret in effect; the attempt is recorded (time, status or error,
 * duration) before the answer to Pub/Sub: acknowledged on a 2xx, retried otherwise until the window closes.
 */
export async function deliverWebhook(deps: DeliverDeps, ref: DeliveryRef): Promise<DeliverOutcome> {
  const now = deps.now ?? (() => new Date());
  const timing = deps.timing ?? DEFAULT_DELIVERY_TIMING;
  const deliveryRef = deps.db.doc(DOCUMENT_PATHS.webhookDelivery(ref.organizationId, ref.webhookId, ref.eventId));

  const leased = await deps.db.runTransaction(async (transaction) => {
    const snap = await transaction.get(deliveryRef);
    const delivery = snap.data() as DeliveryDocument | undefined;
    if (delivery?.status !== "pending") return undefined;
    const at = now().getTime();
    if (delivery.leased_until && Date.parse(delivery.leased_until) > at) return undefined;
    transaction.update(deliveryRef, {
      leased_until: new Date(at + leaseMs(timing)).toISOString(),
      sweep_at: new Date(at + timing.sweepAfterMs).toISOString(),
    });
    return delivery;
  });
  if (!leased) return "skipped";

  const [webhookSnap, eventSnap] = await Promise.all([
    deps.db.doc(DOCUMENT_PATHS.webhook(ref.organizationId, ref.webhookId)).get(),
    deps.db.doc(DOCUMENT_PATHS.event(ref.organizationId, ref.eventId)).get(),
  ]);
  const webhook = webhookSnap.data() as WebhookDocument | undefined;
  const event = eventSnap.data() as OutboxEvent | undefined;
  const endWithout = async (reason: string) => {
    await deliveryRef.update(failedDelivery(now(), reason));
    return "failed" as const;
  };
  if (webhook?.status !== "active") return endWithout("the webhook is disabled or deleted");
  if (!event) return endWithout("the event no longer exists");

  const attemptedAt = now();
  const body = JSON.stringify(webhookBody(event));
  let outcome: PostOutcome;
  try {
    const headers = signDelivery(
      deps.box,
      ref.organizationId,
      webhook,
      webhookMessageId(ref.eventId, ref.webhookId),
      body,
      attemptedAt,
    );
    outcome = await postWebhook(webhook.url, body, { ...headers }, timing.timeoutMs, deps.receivers ?? "public");
  } catch (error) {
    // Nothing was sent (a secret that does not open with this key): an attempt like any other, listed and retried.
    outcome = {
      ok: false,
      statusCode: null,
      error: `not sent: ${(error as Error).message}`,
      durationMs: 0,
      responseExcerpt: null,
    };
  }
  const windowOver = Date.parse(leased.window_started_at) + timing.retryWindowMs <= now().getTime();
  await recordAttempt(deps.db, deliveryRef, attemptedAt, outcome, windowOver, timing, now());
  if (outcome.ok) return "delivered";
  if (windowOver) return "failed";
  throw new AttemptFailed(`delivery ${leased.id} to ${webhook.url} failed: ${outcome.error}`);
}

/** The attempt's own document, and the delivery's summary of it, in one batch. */
async function recordAttempt(
  db: Firestore,
  deliveryRef: DocumentReference,
  attemptedAt: Date,
  outcome: PostOutcome,
  windowOver: boolean,
  timing: DeliveryTiming,
  finishedAt: Date,
) {
  const attempt: DeliveryAttemptDocument = {
    attempted_at: attemptedAt.toISOString(),
    status_code: outcome.statusCode,
    error: outcome.error,
    duration_ms: outcome.durationMs,
    response_excerpt: outcome.responseExcerpt,
  };
  const summary = {
    attempt_count: FieldValue.increment(1),
    last_attempt_at: attempt.attempted_at,
    last_status_code: outcome.statusCode,
    last_error: outcome.error,
    leased_until: FieldValue.delete(),
  };
  const ending = outcome.ok
    ? { status: "delivered", delivered_at: finishedAt.toISOString(), sweep_at: FieldValue.delete() }
    : windowOver
      ? failedDelivery(finishedAt, `not delivered within the retry window; last: ${outcome.error}`)
      : { sweep_at: new Date(finishedAt.getTime() + timing.sweepAfterMs).toISOString() };
  const batch = db.batch();
  batch.create(deliveryRef.collection(COLLECTIONS.webhookAttempts).doc(), attempt);
  batch.update(deliveryRef, { ...summary, ...ending });
  await batch.commit();
}
