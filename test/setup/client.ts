import type { Publisher } from "@usage-ingestion/gateway";
import { handleMessage } from "@usage-ingestion/records";
import { DOCUMENT_PATHS, type QueueMessage } from "@usage-ingestion/shared";
import { failingWhere } from "./gateway.ts";
import { firestore, type pullableTopic } from "./harness.ts";
import { pushEvent, workerDeps } from "./worker.ts";

/**
 * The global `fetch`, watched: every request body the client sent and every status it got back. The
 * requests still go to the real gateway.
 */
export function watchedFetch() {
  const sent: Array<Array<Record<string, unknown>>> = [];
  const statuses: number[] = [];
  const watched: typeof fetch = async (input, init) => {
    sent.push((JSON.parse(String(init?.body)) as { transactions: Array<Record<string, unknown>> }).transactions);
    const response = await fetch(input, init);
    statuses.push(response.status);
    return response;
  };
  return { fetch: watched, sent, statuses };
}

/** Stand-in publisher that fails on purpose the first `times` messages matching `which`, real after. */
export function failingFirst(real: Publisher, times: number, which: (m: QueueMessage) => boolean = () => true) {
  let failures = 0;
  return failingWhere(real, (message) => which(message) && failures++ < times);
}

/**
 * The worker's half of the pipeline: pulls what the gateway published, hands each message to the real
 * handler as a push would, and returns the stored records by message id.
 */
export async function priceQueued(
  topic: Awaited<ReturnType<typeof pullableTopic>>,
  organizationId: string,
  count: number,
): Promise<Map<string, Record<string, unknown>>> {
  const messages = await topic.pull(count);
  const deps = workerDeps();
  const records = new Map<string, Record<string, unknown>>();
  for (const message of messages) {
    await handleMessage(deps, pushEvent(message.data, message.id));
    const stored = (await firestore().doc(DOCUMENT_PATHS.transaction(organizationId, message.id)).get()).data();
    if (stored) records.set(message.id, stored);
  }
  return records;
}
