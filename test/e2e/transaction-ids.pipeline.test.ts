import { randomUUID } from "node:crypto";
import { DOCUMENT_PATHS, QUEUE_SCHEMA_VERSION, type QueueMessage, type Transaction } from "@usage-ingestion/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { delay } from "../../scripts/lib/processes.ts";
import type { Stack } from "../../scripts/lib/stack.ts";
import { bulk, validTransaction } from "../setup/fixtures.ts";
import { firestore, pubsub, seedOrganization, uniqueId } from "../setup/harness.ts";
import { recordTotals, rollupTotals } from "../setup/rollups.ts";
import { startStackOnTestEmulators } from "../setup/stack.ts";

// gpt-4o at $2.50 in / $10 out per million (https://openai.com/api/pricing/): 1200 x 2.5 + 300 x 10 per
// million = 0.006 USD = 6,000,000 nanos per transaction of the fixture.
const EACH = 6_000_000n;

/** Waits until the organization holds `count` records (the worker is asynchronous by design). */
async function recordsSettled(org: string, count: number, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  const records = firestore().collection(DOCUMENT_PATHS.transactions(org));
  while (Date.now() < deadline) {
    if ((await records.count().get()).data().count >= count) return;
    await delay(250);
  }
  throw new Error(`timed out waiting for ${count} records of ${org}`);
}

describe("a transaction_id is billed once, through gateway, queue and worker", () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStackOnTestEmulators({ PUBSUB_TOPIC: uniqueId("ids") });
  });
  afterAll(() => stack?.stop());

  const post = async (apiKey: string, body: unknown) => {
    const response = await fetch(`${stack.baseUrl}/usage/transactions`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": apiKey },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(202);
    return ((await response.json()) as { results: Array<{ message_id: string }> }).results.map((r) => r.message_id);
  };

  it("bills a single retried, retried concurrently, and retried after a late publish, once", async () => {
    const org = await seedOrganization();
    const transaction = validTransaction({ transaction_id: "chatcmpl-retried" });
    await post(org.apiKey, transaction);
    await post(org.apiKey, transaction);
    await Promise.all([1, 2, 3].map(() => post(org.apiKey, transaction)));
    // A publish that timed out at the gateway but landed later: the same envelope, straight onto the topic.
    const late: QueueMessage = {
      schema_version: QUEUE_SCHEMA_VERSION,
      organization_id: org.organizationId,
      request_id: randomUUID(),
      transaction_index: 0,
      received_at: new Date().toISOString(),
      transaction: transaction as Transaction,
    };
    await pubsub()
      .topic(stack.names.topic)
      .publishMessage({ json: late, attributes: { organization_id: org.organizationId, schema_version: "1" } });
    await recordsSettled(org.organizationId, 6);
    expect(await recordTotals(org.organizationId)).toEqual({
      count: 6,
      byStatus: { priced: 1, duplicate: 5 },
      billedNanos: EACH,
    });
    expect(await rollupTotals(org.organizationId)).toMatchObject({ transactions: 1, costNanos: EACH });
  });

  it("bills each id once across bulks, and stores a conflicting payload as a conflict", async () => {
    const org = await seedOrganization();
    const tx = (id: string, overrides: Record<string, unknown> = {}) =>
      validTransaction({ transaction_id: id, ...overrides });
    await post(org.apiKey, bulk(tx("a"), tx("b"), tx("b"), tx("c")));
    await post(org.apiKey, bulk(tx("c"), tx("d"), tx("a", { model: "gpt-4o-mini" })));
    await recordsSettled(org.organizationId, 7);
    const totals = await recordTotals(org.organizationId);
    expect(totals.byStatus).toEqual({ priced: 4, duplicate: 2, conflict: 1 });
    expect(totals.billedNanos).toBe(4n * EACH);
    expect(await rollupTotals(org.organizationId)).toEqual({
      transactions: 4,
      unpriced: 0,
      conflicts: 1,
      costNanos: 4n * EACH,
    });
  });
});
