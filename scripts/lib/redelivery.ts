import type { PubSub } from "@google-cloud/pubsub";

export interface RedeliverySweep {
  /** Has every unacknowledged message pushed again now. */
  now(): Promise<void>;
  stop(): void;
}

/**
 * The Pub/Sub emulator stops pushing a message after about three failed pushes under a retry policy, and
 * never dead-letters it (docs/local-development.md, "Pub/Sub emulator behaviour"). Seeking the subscription to the epoch
 * makes it push every unacknowledged message again and nothing already acknowledged, so the local stack
 * does it when it starts, after each worker restart, and every `intervalMs`. Redelivery is harmless: the
 * worker writes each message's record once. A seek also pushes again what is in flight, so a periodic
 * sweep is skipped while the worker is busy (`busy()`), for at most `maxSkipMs`: a backlog being worked
 * through is not doubled every few seconds.
 */
export function redeliverySweep(
  pubsub: PubSub,
  subscription: string,
  options: { intervalMs: number; log: (line: string) => void; busy?: () => boolean; maxSkipMs?: number },
): RedeliverySweep {
  let failing = false;
  let lastSweep = Date.now();
  let running: Promise<void> | undefined;
  const now = () => {
    running ??= seek().finally(() => {
      running = undefined;
    });
    return running;
  };
  const seek = async () => {
    lastSweep = Date.now();
    try {
      await pubsub.subscription(subscription).seek(new Date(0));
      if (failing) options.log("redelivery works again");
      failing = false;
    } catch (error) {
      // The Pub/Sub emulator is down: said once, retried on the next tick.
      if (!failing) options.log(`cannot ask Pub/Sub to redeliver: ${(error as Error).message.split("\n")[0]}`);
      failing = true;
    }
  };
  const tick = () => {
    const skippedFor = Date.now() - lastSweep;
    if (options.busy?.() && skippedFor < (options.maxSkipMs ?? 6 * options.intervalMs)) return;
    void now();
  };
  const timer = options.intervalMs > 0 ? setInterval(tick, options.intervalMs) : undefined;
  timer?.unref();
  return { now, stop: () => clearInterval(timer) };
}
