import type { Message } from "@google-cloud/pubsub";
import type { RecordRow } from "@usage-ingestion/records";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Stack } from "../../scripts/lib/stack.ts";
import { validTransaction } from "../setup/fixtures.ts";
import { pubsub, seedOrganization, uniqueId } from "../setup/harness.ts";
import { startStackOnTestEmulators } from "../setup/stack.ts";

/** Rows published to the records topic, as a pull subscription made before anything is sent sees them. */
async function recordsSubscription(topic: string) {
  const [subscription] = await pubsub().topic(topic).createSubscription(uniqueId("records-pull"));
  const rows: RecordRow[] = [];
  subscription.on("message", (message: Message) => {
    message.ack();
    rows.push(JSON.parse(message.data.toString("utf8")) as RecordRow);
  });
  return {
    async rowsOf(messageId: string, count: number, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const found = rows.filter((row) => row.message_id === messageId);
        if (found.length >= count) return found;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`no ${count} row(s) of ${messageId} on ${topic} within ${timeoutMs} ms`);
    },
    close: () => subscription.close(),
  };
}

describe("gateway -> worker process -> records topic, as the local stack runs them", () => {
  let stack: Stack;
  const recordsTopic = uniqueId("records");

  beforeAll(async () => {
    stack = await startStackOnTestEmulators({ PUBSUB_TOPIC: uniqueId("e2e"), RECORDS_TOPIC: recordsTopic });
  });
  afterAll(() => stack?.stop());

  it("creates the records topic with the rest of the topology, and the worker publishes each stored record there", async () => {
    expect(stack.names.recordsTopic).toBe(recordsTopic);
    const records = await recordsSubscription(recordsTopic);
    try {
      const org = await seedOrganization();
      const response = await fetch(`${stack.baseUrl}/usage/transactions`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": org.apiKey },
        body: JSON.stringify(validTransaction()),
      });
      expect(response.status).toBe(202);
      const { results } = (await response.json()) as { results: Array<{ message_id: string }> };
      const messageId = results[0]?.message_id as string;
      const [row] = await records.rowsOf(messageId, 1);
      expect(row).toMatchObject({
        message_id: messageId,
        revision: 1,
        organization_id: org.organizationId,
        request_id: response.headers.get("x-request-id"),
        status: "priced",
        billable_customer_id: "cust-42",
        currency: "USD",
      });
      expect(row?.cost_nanos).toBeGreaterThan(0);
    } finally {
      await records.close();
    }
  });
});
