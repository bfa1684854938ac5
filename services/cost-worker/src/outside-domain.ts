import type { Domain } from "node:domain";

/** The active domain: `process.domain`, which Node.js sets only once `node:domain` is loaded. */
export const activeDomain = (): Domain | undefined => (process as { domain?: Domain }).domain ?? undefined;

/**
 * Starts `work` outside the `domain` that is active (if any), and with it every promise, timer and
 * stream it goes on to make; the caller's domain is active again when this returns.
 *
 * The functions framework runs each request in a domain, so that an error thrown later from one of the
 * request's callbacks answers that request. Loading `node:domain` turns on async hooks for the process,
 * and everything made inside a domain then enters and leaves it on every callback: in a profile of a
 * backlog drain that was about 15% of the worker's CPU, and more for work with more promises per
 * message. The handler needs none of it: it returns a promise that the framework awaits, and it catches
 * what a retry can fix. An error that nothing catches goes to the framework's process-wide handler
 * instead: a 500 and a restart, and Pub/Sub redelivers whatever was not acknowledged.
 */
export function outsideDomain<T>(work: () => T): T {
  const active = activeDomain();
  if (!active) return work();
  active.exit();
  try {
    return work();
  } finally {
    active.enter();
  }
}
