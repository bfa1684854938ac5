import { setCustomPricing } from "@usage-ingestion/prices";
import { DOCUMENT_PATHS } from "@usage-ingestion/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { delay } from "../../scripts/lib/processes.ts";
import type { Stack } from "../../scripts/lib/stack.ts";
import { bulk, validTransaction } from "../setup/fixtures.ts";
import { firestore, pubsub, seedOrganization, uniqueId } from "../setup/harness.ts";
import { startStackOnTestEmulators } from "../setup/stack.ts";

/** Polls Firestore until the document exists (the worker is asynchronous by design). */
async function eventually<T>(read: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await read();
    if (value !== undefined) return value;
    await delay(200);
  }
  throw new Error("timed out waiting for the worker");
}

const record = (org: string, messageId: string) =>
  eventually(async () => (await firestore().doc(DOCUMENT_PATHS.transaction(org, messageId)).get()).data());

describe("gateway -> Pub/Sub -> push -> worker -> Firestore, as processes", () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStackOnTestEmulators({ PUBSUB_TOPIC: uniqueId("e2e"), CUSTOM_PRICING_CACHE_TTL_MS: "0" });
  });
  afterAll(() => stack?.stop());

  const post = (apiKey: string, body: unknown) =>
    fetch(`${stack.baseUrl}/usage/transactions`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": apiKey },
      body: JSON.stringify(body),
    });

  it("prices an accepted transaction into its record", async () => {
    const org = await seedOrganization();
    const response = await post(
      org.apiKey,
      validTransaction({
        usage: [
          {
            type: "tokens",
            metrics: { input_tokens: 1200, cached_tokens: 200, output_tokens: 300, total_tokens: 1500 },
          },
        ],
      }),
    );
    expect(response.status).toBe(202);
    const body = (await response.json()) as { results: Array<{ message_id: string }> };
    const messageId = body.results[0]?.message_id as string;
    const stored = await record(org.organizationId, messageId);
    expect(stored).toMatchObject({
      message_id: messageId,
      request_id: response.headers.get("x-request-id"),
      organization_id: org.organizationId,
      status: "priced",
      cost_usd: "0.005750000",
      cost_nanos: 5_750_000,
      currency: "USD",
      context: { billable_customer_id: "cust-42", environment: "test" },
    });
  });

  it("stores every transaction of a bulk once", async () => {
    const org = await seedOrganization();
    const response = await post(
      org.apiKey,
      bulk(validTransaction(), validTransaction({ model: "unknown-model-x" }), validTransaction()),
    );
    expect(response.status).toBe(202);
    const ids = ((await response.json()) as { results: Array<{ message_id: string }> }).results.map(
      (r) => r.message_id,
    );
    const stored = await Promise.all(ids.map((id) => record(org.organizationId, id)));
    expect(stored.map((r) => [r.transaction_index, r.status])).toEqual([
      [0, "priced"],
      [1, "unpriced"],
      [2, "priced"],
    ]);
    await delay(1_500);
    const all = await firestore().collection(DOCUMENT_PATHS.transactions(org.organizationId)).get();
    expect(all.size).toBe(3);
  });

  it("prices a custom provider from the organization's prices set with the admin command", async () => {
    const org = await seedOrganization();
    await setCustomPricing(
      firestore(),
      org.organizationId,
      JSON.stringify({ prices: [{ provider: "custom", model: "in-house-llm", unit: "0.002" }] }),
    );
    const response = await post(
      org.apiKey,
      validTransaction({
        provider: "custom",
        model: "in-house-llm",
        usage: [{ type: "custom", metrics: { units: 1500 } }],
      }),
    );
    const messageId = ((await response.json()) as { results: Array<{ message_id: string }> }).results[0]
      ?.message_id as string;
    expect(await record(org.organizationId, messageId)).toMatchObject({ status: "priced", cost_usd: "3.000000000" });
  });

  it("keeps a poison message in rejected_messages and does not retry it", async () => {
    const [messageId] = await Promise.all([
      pubsub()
        .topic(stack.names.topic)
        .publishMessage({ data: Buffer.from("not json") }),
    ]);
    const kept = await eventually(async () =>
      (await firestore().doc(DOCUMENT_PATHS.rejectedMessage(messageId)).get()).data(),
    );
    expect(kept).toMatchObject({ reason: expect.stringContaining("not JSON"), data_text: "not json" });
  });
});
