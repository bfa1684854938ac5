import type { QueueMessage } from "@usage-ingestion/shared";
import type { PublishOutcome } from "@usage-ingestion/shared/server";
import type { Publisher } from "../queue/publisher.ts";

/** A message the fake publisher took, as Pub/Sub would have stored it. */
export interface PublishedMessage {
  id: string;
  message: QueueMessage;
  attributes: Record<string, string>;
  /** The transaction's own text from the request body, where the gateway sent it as it was. */
  transactionText?: string;
}

/**
 * The publisher in memory: each message gets the next id, as Pub/Sub numbers its own, unless `failWhere`
 * picks it, when its outcome is an error (a Pub/Sub outage for that message). Never rejects, as the real
 * one never does.
 */
export function fakePublisher() {
  const published: PublishedMessage[] = [];
  let fails: (message: QueueMessage) => boolean = () => false;
  let next = 1;
  const publisher = {
    published,
    /** How many times publish was called. */
    calls: 0,
    async publish(
      messages: readonly QueueMessage[],
      attributes: Record<string, string> = {},
      transactionTexts: ReadonlyArray<Uint8Array | undefined> = [],
    ): Promise<PublishOutcome[]> {
      publisher.calls++;
      return messages.map((message, index): PublishOutcome => {
        if (fails(message)) return { error: new Error("simulated Pub/Sub outage") };
        const id = String(next++);
        const text = transactionTexts[index];
        published.push({
          id,
          message,
          attributes,
          ...(text ? { transactionText: Buffer.from(text).toString("utf8") } : {}),
        });
        return { id };
      });
    },
    async close(): Promise<void> {},
    failWhere(which: (message: QueueMessage) => boolean): void {
      fails = which;
    },
  } satisfies Publisher & Record<string, unknown>;
  return publisher;
}

export type FakePublisher = ReturnType<typeof fakePublisher>;
