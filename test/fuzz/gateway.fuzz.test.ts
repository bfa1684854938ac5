import { handleMessage } from "@usage-ingestion/records";
import { DOCUMENT_PATHS } from "@usage-ingestion/shared";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validTransaction } from "../setup/fixtures.ts";
import { startTestGateway } from "../setup/gateway.ts";
import { firestore, pullableTopic, seedOrganization } from "../setup/harness.ts";
import { pushEvent, workerDeps } from "../setup/worker.ts";

/** Seeded, so a failure is reproduced by running again; fast-check prints the seed and the shrunk body. */
const SEED = 20_261_122;
const RUNS = 120;

const ERROR_CODES = ["validation_error", "invalid_json", "unauthorized", "internal_error", "partial_failure"];
const FIELD_CODES = ["required", "invalid_type", "invalid_value", "too_small", "too_large", "invalid_format"];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const nest = (depth: number): unknown => {
  let value: unknown = "leaf";
  for (let i = 0; i < depth; i++) value = i % 2 ? { n: value } : [value];
  return value;
};

/** Values a hostile client sends: any JSON, text that is not valid Unicode, huge numbers, deep nesting. */
const hostileValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom("\ud800", "\udfff", "a\udc00b", "\ud83d", "", " ", "0", "-1"),
  fc.string({ unit: "binary", maxLength: 20 }),
  fc.constantFrom(2 ** 53, -(2 ** 53), 1e308, 0.5, -0, Number.MAX_SAFE_INTEGER),
  fc.integer({ min: 60, max: 2_000 }).map(nest),
);

const PATHS = [
  "provider",
  "model",
  "model_tier",
  "transaction_id",
  "usage",
  "usage.0",
  "usage.0.type",
  "usage.0.metrics",
  "usage.0.metrics.input_tokens",
  "usage.0.metrics.output_tokens",
  "usage.0.metrics.vendor_extra",
  "usage.1",
  "context",
  "context.billable_customer_id",
  "context.note",
  "context.\ud800",
  "provider_usage_raw",
  "provider_usage_raw.id",
];

function mutate(target: Record<string, unknown>, path: string, value: unknown, remove: boolean): void {
  const keys = path.split(".");
  let node: unknown = target;
  for (const key of keys.slice(0, -1)) {
    if (node === null || typeof node !== "object") return;
    node = (node as Record<string, unknown>)[key];
  }
  if (node === null || typeof node !== "object") return;
  const last = keys.at(-1) as string;
  if (remove) delete (node as Record<string, unknown>)[last];
  else (node as Record<string, unknown>)[last] = value;
}

const mutatedTransaction = fc
  .array(fc.record({ path: fc.constantFrom(...PATHS), value: hostileValue, remove: fc.boolean() }), {
    minLength: 0,
    maxLength: 4,
  })
  .chain((mutations) =>
    fc.integer({ min: 0, max: 1_000_000 }).map((n) => {
      const transaction = structuredClone(validTransaction({ transaction_id: `fuzz-${n}` }));
      for (const { path, value, remove } of mutations) mutate(transaction, path, value, remove);
      return transaction;
    }),
  );

const body = fc.oneof(
  { weight: 4, arbitrary: mutatedTransaction },
  {
    weight: 3,
    arbitrary: fc.array(mutatedTransaction, { minLength: 1, maxLength: 6 }).map((transactions) => ({ transactions })),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
);

describe("fuzzed bodies against the gateway and the worker", () => {
  let gateway: Awaited<ReturnType<typeof startTestGateway>>;
  let topic: Awaited<ReturnType<typeof pullableTopic>>;
  let org: Awaited<ReturnType<typeof seedOrganization>>;

  beforeAll(async () => {
    org = await seedOrganization();
    topic = await pullableTopic();
    gateway = await startTestGateway({ topicName: topic.topicName });
  });
  afterAll(() => gateway?.close());

  it("never answers 5xx, answers only the spec's envelopes, and stores every accepted transaction once", async () => {
    const accepted: string[] = [];
    await fc.assert(
      fc.asyncProperty(body, async (sent) => {
        const response = await gateway.post(JSON.stringify(sent), { "X-Api-Key": org.apiKey });
        expect(response.headers.get("x-request-id")).toMatch(UUID);
        expect([202, 207, 400, 413]).toContain(response.status);
        const answer = await response.json();
        if (response.status === 400 || response.status === 413) {
          expect(ERROR_CODES).toContain(answer.error.code);
          expect(typeof answer.error.message).toBe("string");
          for (const detail of answer.error.details ?? []) {
            expect(FIELD_CODES).toContain(detail.code);
            expect(typeof detail.field).toBe("string");
          }
          return;
        }
        const count = Array.isArray((sent as { transactions?: unknown }).transactions)
          ? (sent as { transactions: unknown[] }).transactions.length
          : 1;
        expect(answer.results).toHaveLength(count);
        for (const result of answer.results) {
          if (result.message_id !== null) accepted.push(result.message_id);
          else expect(typeof result.error).toBe("string");
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    // The generator must reach the worker with plenty of hostile content, or the property proves little.
    expect(accepted.length).toBeGreaterThan(40);

    const messages = await topic.pull(accepted.length, 30_000);
    expect(messages.map((m) => m.id).sort()).toEqual([...accepted].sort());
    const deps = workerDeps(undefined, 10_000, 10_000);
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        for (let message = messages[next++]; message; message = messages[next++]) {
          // Twice: a redelivery must change nothing.
          const event = pushEvent(message.data, message.id);
          await handleMessage(deps, event);
          await handleMessage(deps, event);
        }
      }),
    );
    const records = await firestore().collection(DOCUMENT_PATHS.transactions(org.organizationId)).get();
    const rejected = await Promise.all(
      accepted.map(async (id) => (await firestore().doc(DOCUMENT_PATHS.rejectedMessage(id)).get()).exists),
    );
    const stored = new Set(records.docs.map((doc) => doc.id));
    const missing = accepted.filter((id, i) => !stored.has(id) && !rejected[i]);
    expect(missing).toEqual([]);
    expect(records.size).toBe(accepted.filter((_, i) => !rejected[i]).length);
    expect(rejected.filter(Boolean)).toHaveLength(0);
  }, 180_000);
});
