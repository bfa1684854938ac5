import { Firestore } from "@google-cloud/firestore";
import { PubSub } from "@google-cloud/pubsub";
import { pubsubDeliveryQueue } from "../../services/cost-worker/src/webhooks/delivery-queue.ts";
import { DEFAULT_DELIVERY_TIMING } from "../../services/cost-worker/src/webhooks/delivery-timing.ts";
import { dispatchEvents } from "../../services/cost-worker/src/webhooks/dispatch-events.ts";
import { everyInterval } from "./every-interval.ts";

/**
 * The webhook dispatch, as Cloud Scheduler runs it every minute in Google Cloud: here every `intervalMs`
 * (WEBHOOK_DISPATCH_INTERVAL_MS, 3 s), in this process, with a short sweep time (WEBHOOK_SWEEP_AFTER_MS,
 * 10 s), since the Pub/Sub emulator gives up pushing a delivery after a few failures and the sweep is
 * what queues it again. One run at a time.
 */
export function dispatchEveryInterval(options: {
  projectId: string;
  topic: string;
  intervalMs: number;
  sweepAfterMs: number;
  log: (line: string) => void;
}): () => Promise<void> {
  const db = new Firestore({ projectId: options.projectId });
  const pubsub = new PubSub({ projectId: options.projectId });
  const queue = pubsubDeliveryQueue(pubsub, options.topic);
  const timing = { ...DEFAULT_DELIVERY_TIMING, sweepAfterMs: options.sweepAfterMs };
  const stop = everyInterval(
    async () => {
      const run = await dispatchEvents({ db, queue, timing, log: options.log });
      if (run.dispatched > 0) options.log(`dispatched ${run.dispatched} events into ${run.deliveries} deliveries`);
      if (run.requeued > 0 || run.failed > 0)
        options.log(`queued ${run.requeued} deliveries again, ${run.failed} failed`);
    },
    options.intervalMs,
    (error) => options.log(error.message.split("\n")[0] as string),
  );
  return async () => {
    await stop();
    await Promise.all([db.terminate(), pubsub.close()]);
  };
}
