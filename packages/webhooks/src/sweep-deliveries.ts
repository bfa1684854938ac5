import { FieldValue, type Firestore } from "@google-cloud/firestore";
import { COLLECTIONS } from "@usage-ingestion/shared";
import type { DeliveryQueue } from "./delivery-queue.ts";
import { type DeliveryTiming, SWEEP_BATCH } from "./delivery-timing.ts";
import type { DeliveryDocument } from "./webhook-documents.ts";

export interface SweepDeps {
  db: Firestore;
  queue: DeliveryQueue;
  now: () => Date;
  timing: DeliveryTiming;
  log?: (line: string) => void;
}

const FAILED_PRECONDITION = 9;
const changedMeanwhile = (error: unknown) => (error as { code?: number }).code === FAILED_PRECONDITION;

/** The fields that end a delivery as failed: it leaves the sweep, and says why. */
export const failedDelivery = (at: Date, reason: string) => ({
  status: "failed" as const,
  failed_at: at.toISOString(),
  last_error: reason,
  sweep_at: FieldValue.delete(),
  leased_until: FieldValue.delete(),
});

/**
 * Queues again every pending delivery nothing has touched since its sweep time (queued, never pushed; its
 * Pub/Sub retries dead-lettered; the local emulator gave up pushing), a bounded batch oldest first, and
 * marks failed those whose retry window is over. Each change is made on condition that the delivery did
 * not change since it was read, so two sweeps at once queue it once; a second queueing would be harmless
 * anyway (the delivery function posts a pending delivery once at a time, and a delivered one never again).
 */
export async function sweepDeliveries(
  deps: SweepDeps,
): Promise<{ requeued: number; failed: number; queueFailures: number }> {
  const at = deps.now();
  const result = { requeued: 0, failed: 0, queueFailures: 0 };
  const due = await deps.db
    .collectionGroup(COLLECTIONS.webhookDeliveries)
    .where("sweep_at", "<=", at.toISOString())
    .orderBy("sweep_at")
    .limit(SWEEP_BATCH)
    .get();
  for (const doc of due.docs) {
    const delivery = doc.data() as DeliveryDocument;
    const precondition = { lastUpdateTime: doc.updateTime };
    const windowOver = Date.parse(delivery.window_started_at) + deps.timing.retryWindowMs <= at.getTime();
    try {
      if (windowOver || delivery.status !== "pending") {
        const reason = `not delivered within ${Math.round(deps.timing.retryWindowMs / 3_600_000)} hours; last: ${delivery.last_error ?? "no attempt"}`;
        await doc.ref.update(
          delivery.status === "pending" ? failedDelivery(at, reason) : { sweep_at: FieldValue.delete() },
          precondition,
        );
        if (delivery.status === "pending") result.failed += 1;
        continue;
      }
      await doc.ref.update(
        {
          sweep_at: new Date(at.getTime() + deps.timing.sweepAfterMs).toISOString(),
          queued_count: FieldValue.increment(1),
        },
        precondition,
      );
    } catch (error) {
      if (changedMeanwhile(error)) continue;
      throw error;
    }
    try {
      await deps.queue.queue({
        organizationId: delivery.organization_id,
        webhookId: delivery.webhook_id,
        eventId: delivery.event_id,
      });
      result.requeued += 1;
    } catch (error) {
      // Its sweep time moved on: the next sweep after it tries again.
      result.queueFailures += 1;
      deps.log?.(`could not queue delivery ${doc.ref.path} again: ${(error as Error).message}`);
    }
  }
  return result;
}
