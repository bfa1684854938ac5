import { QUEUE_SCHEMA_VERSION, type QueueMessage } from "@usage-ingestion/shared";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { validTransaction } from "../../../../test/setup/fixtures.ts";
import { queueMessageData } from "./queue-message-json.ts";

const message = (overrides: Partial<QueueMessage>): QueueMessage => ({
  schema_version: QUEUE_SCHEMA_VERSION,
  organization_id: "org-1",
  request_id: "7f0c5c9e-3f39-4c4e-9d55-6f4c3c1f3b2a",
  transaction_index: 0,
  received_at: "2026-11-22T10:00:00.000Z",
  transaction: validTransaction() as QueueMessage["transaction"],
  ...overrides,
});

describe("the queue message's JSON text", () => {
  it("is byte for byte what JSON.stringify writes, across requests and within one", () => {
    const text = fc.string({ unit: "binary", maxLength: 12 });
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            organization_id: fc.constantFrom("org-1", "org-2", 'a"\\\u2028\ud800'),
            request_id: fc.constantFrom("r-1", "r-2"),
            received_at: fc.constantFrom("2026-11-22T10:00:00.000Z", "2026-11-22T10:00:01.000Z"),
            transaction_index: fc.nat(1000),
            model: text,
          }),
          { maxLength: 12 },
        ),
        (items) => {
          const queued = items.map(({ model, ...envelope }) =>
            message({ ...envelope, transaction: { ...message({}).transaction, model } }),
          );
          expect(queueMessageData(queued)).toEqual(queued.map((item) => JSON.stringify(item)));
        },
      ),
      { seed: 7, numRuns: 300 },
    );
  });

  it("puts a transaction's own text in the same envelope, as bytes, the others serialised", () => {
    const messages = [0, 1, 2, 1000].map((index) => message({ transaction_index: index }));
    const texts = messages.map((queued, n) =>
      n === 1 ? undefined : Buffer.from(JSON.stringify(queued.transaction), "utf8"),
    );
    const data = queueMessageData(messages, texts);
    expect(data.map((item) => (typeof item === "string" ? item : Buffer.concat(item).toString("utf8")))).toEqual(
      messages.map((queued) => JSON.stringify(queued)),
    );
    expect(data.map((item) => typeof item)).toEqual(["object", "string", "object", "object"]);
  });
});
