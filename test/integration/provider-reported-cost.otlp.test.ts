import { handleMessage } from "@usage-ingestion/records";
import { DOCUMENT_PATHS } from "@usage-ingestion/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway } from "../setup/gateway.ts";
import { firestore, pullableTopic, seedOrganization } from "../setup/harness.ts";
import { pushEvent, workerDeps } from "../setup/worker.ts";

/** A span's cost attributes through POST /v1/traces, the queue and the worker into the record (decision 0031). */
let org: Awaited<ReturnType<typeof seedOrganization>>;
let topic: Awaited<ReturnType<typeof pullableTopic>>;
let gateway: Awaited<ReturnType<typeof startTestGateway>>;

beforeAll(async () => {
  org = await seedOrganization();
  topic = await pullableTopic();
  gateway = await startTestGateway({ topicName: topic.topicName });
});
afterAll(() => gateway?.close());

type Value = { stringValue: string } | { intValue: string } | { doubleValue: number };
const value = (v: string | number): Value =>
  typeof v === "string" ? { stringValue: v } : Number.isInteger(v) ? { intValue: String(v) } : { doubleValue: v };
const span = (spanId: string, responseId: string, more: Record<string, string | number>) => ({
  traceId: "5b8efff798038103d269b633813fc60d",
  spanId,
  name: "chat gpt-4o",
  kind: 3,
  startTimeUnixNano: "1795551367162000000",
  endTimeUnixNano: "1795551367262000000",
  attributes: Object.entries({
    "gen_ai.operation.name": "chat",
    "gen_ai.provider.name": "openai",
    "gen_ai.request.model": "gpt-4o",
    "gen_ai.response.id": responseId,
    "gen_ai.usage.input_tokens": 1000,
    "gen_ai.usage.output_tokens": 500,
    ...more,
  }).map(([key, v]) => ({ key, value: value(v) })),
});

describe("a span's cost attributes", () => {
  it("become the record's provider_reported_cost when in USD, and nothing in another currency", async () => {
    const body = {
      resourceSpans: [
        {
          resource: { attributes: [{ key: "service.name", value: { stringValue: "checkout" } }] },
          scopeSpans: [
            {
              scope: { name: "test" },
              spans: [
                span("00000000000000c1", "chatcmpl-cost-usd", {
                  "gen_ai.usage.cost.amount": 0.0075123,
                  "gen_ai.usage.cost.currency": "USD",
                }),
                span("00000000000000c2", "chatcmpl-cost-eur", {
                  "gen_ai.usage.cost.amount": 0.0069,
                  "gen_ai.usage.cost.currency": "EUR",
                }),
                span("00000000000000c3", "chatcmpl-cost-oi", { "llm.cost.total": 0.0075 }),
              ],
            },
          ],
        },
      ],
    };
    const response = await fetch(`${gateway.baseUrl}/v1/traces`, {
      method: "POST",
      body: JSON.stringify(body),
      headers: { "content-type": "application/json", "x-api-key": org.apiKey },
    });
    expect(response.status).toBe(200);
    // Every span taken: a cost left unread is no rejection.
    expect(await response.json()).toEqual({});

    const messages = await topic.pull(3, 10_000);
    expect(messages).toHaveLength(3);
    const byId = new Map(
      messages.map((message) => {
        const data = message.data as { transaction: { transaction_id: string } };
        return [data.transaction.transaction_id, message];
      }),
    );
    const stored = async (transactionId: string) => {
      const message = byId.get(transactionId);
      const event = pushEvent(message?.data, `otlp-${message?.id}`);
      await handleMessage(workerDeps(), event);
      return (
        await firestore()
          .doc(DOCUMENT_PATHS.transaction(org.organizationId, event.id as string))
          .get()
      ).data();
    };
    expect(await stored("chatcmpl-cost-usd")).toMatchObject({ provider_reported_cost: "0.007512300000" });
    const eur = await stored("chatcmpl-cost-eur");
    expect(eur).not.toHaveProperty("provider_reported_cost");
    expect(eur?.provider_usage_raw).toMatchObject({
      "gen_ai.usage.cost.amount": 0.0069,
      "gen_ai.usage.cost.currency": "EUR",
    });
    expect(await stored("chatcmpl-cost-oi")).toMatchObject({ provider_reported_cost: "0.007500000000" });
  });
});
