import { createClient, type DeliveryFailure, type TrackedTransaction } from "@usage-ingestion/client";
import { type Publisher, pubSubPublisher } from "@usage-ingestion/gateway";
import { beforeAll, describe, expect, it } from "vitest";
import { failingFirst, watchedFetch } from "../setup/client.ts";
import { validTransaction } from "../setup/fixtures.ts";
import { hangingPublisher, startTestGateway } from "../setup/gateway.ts";
import { freeClosedPort, pubsub, pullableTopic, seedOrganization } from "../setup/harness.ts";

/** Retries in milliseconds, not seconds: the tests are about which answers are retried. */
const fast = { retryBaseDelayMs: 5, retryMaxDelayMs: 20, flushIntervalMs: 60_000 };
const tx = (customer: string, overrides: Record<string, unknown> = {}) =>
  validTransaction({ context: { billable_customer_id: customer }, ...overrides }) as TrackedTransaction;

describe("client against the real gateway: how it reacts to failures", () => {
  let org: Awaited<ReturnType<typeof seedOrganization>>;
  let topic: Awaited<ReturnType<typeof pullableTopic>>;
  let real: Publisher;

  beforeAll(async () => {
    org = await seedOrganization();
    topic = await pullableTopic();
    real = pubSubPublisher(pubsub(), { topic: topic.topicName, timeoutMs: 10_000 });
  });

  it("retries a 500 under the same transaction ids, and each transaction is queued once", async () => {
    const gateway = await startTestGateway({ topicName: topic.topicName, publisher: failingFirst(real, 2) });
    try {
      const watched = watchedFetch();
      const client = createClient({ baseUrl: gateway.baseUrl, apiKey: org.apiKey, fetch: watched.fetch, ...fast });
      client.track(tx("retry-a", { transaction_id: "caller-id-1" }));
      client.track(tx("retry-b"));
      const result = await client.flush();

      expect(watched.statuses).toEqual([500, 202]);
      const ids = watched.sent.map((body) => body.map((t) => t.transaction_id));
      expect(ids[1]).toEqual(ids[0]);
      expect(ids[0]?.[0]).toBe("caller-id-1");
      expect(ids[0]?.[1]).toMatch(/^[0-9a-f-]{36}$/);
      expect(result.failed).toEqual([]);
      expect(result.delivered.map((d) => d.transaction_id)).toEqual(ids[0]);
      const pulled = await topic.pull(3, 1_500);
      expect(pulled.map((m) => m.id).sort()).toEqual(result.delivered.map((d) => d.message_id).sort());
    } finally {
      await gateway.close();
    }
  });

  it("retries only the queueing failures of a 207, never its validation failures", async () => {
    const flaky = failingFirst(real, 1, (m) => m.transaction.context.billable_customer_id === "flaky");
    const gateway = await startTestGateway({ topicName: topic.topicName, publisher: flaky });
    try {
      const watched = watchedFetch();
      const reported: DeliveryFailure[] = [];
      const client = createClient({
        baseUrl: gateway.baseUrl,
        apiKey: org.apiKey,
        fetch: watched.fetch,
        onError: (failures) => reported.push(...failures),
        ...fast,
      });
      client.track(tx("steady"));
      client.track(tx("flaky"));
      client.track(tx("invalid", { model: "" }));
      const result = await client.flush();

      expect(watched.statuses).toEqual([207, 202]);
      expect(
        watched.sent.map((body) =>
          body.map((t) => (t.context as { billable_customer_id: string }).billable_customer_id),
        ),
      ).toEqual([["steady", "flaky", "invalid"], ["flaky"]]);
      expect(result.delivered).toHaveLength(2);
      expect(result.failed).toEqual([
        {
          transaction: expect.objectContaining({ model: "" }),
          reason: "invalid",
          status: 207,
          error: expect.stringContaining("model"),
        },
      ]);
      expect(reported).toEqual(result.failed);
      expect(await topic.pull(2, 3_000)).toHaveLength(2);
    } finally {
      await gateway.close();
    }
  });

  it("never retries a 400, and gives each transaction its own field errors", async () => {
    const gateway = await startTestGateway({ topicName: topic.topicName });
    try {
      const watched = watchedFetch();
      const client = createClient({ baseUrl: gateway.baseUrl, apiKey: org.apiKey, fetch: watched.fetch, ...fast });
      client.track(tx("bad-provider", { provider: "nope" }));
      client.track(tx("bad-model", { model: "" }));
      const result = await client.flush();
      expect(watched.statuses).toEqual([400]);
      expect(result.failed).toEqual([
        {
          transaction: expect.objectContaining({ provider: "nope" }),
          reason: "invalid",
          status: 400,
          details: [expect.objectContaining({ field: "transactions.0.provider", code: "invalid_value" })],
          error: expect.stringMatching(/^HTTP 400 validation_error: transactions\.0\.provider \(invalid_value\)/),
        },
        {
          transaction: expect.objectContaining({ model: "" }),
          reason: "invalid",
          status: 400,
          details: [expect.objectContaining({ field: "transactions.1.model", code: "too_small" })],
          error: expect.stringMatching(/^HTTP 400 validation_error: transactions\.1\.model \(too_small\)/),
        },
      ]);
    } finally {
      await gateway.close();
    }
  });

  it("never retries a 401", async () => {
    const gateway = await startTestGateway({ topicName: topic.topicName });
    try {
      const watched = watchedFetch();
      const client = createClient({ baseUrl: gateway.baseUrl, apiKey: "uk_wrong", fetch: watched.fetch, ...fast });
      client.track(tx("nobody"));
      const result = await client.flush();
      expect(watched.statuses).toEqual([401]);
      expect(result.failed).toMatchObject([{ reason: "unauthorized", status: 401 }]);
    } finally {
      await gateway.close();
    }
  });

  it("retries network errors, then reports the transactions it could not deliver", async () => {
    const watched = watchedFetch();
    const client = createClient({
      baseUrl: `http://127.0.0.1:${await freeClosedPort()}`,
      apiKey: org.apiKey,
      fetch: watched.fetch,
      maxRetries: 2,
      ...fast,
    });
    const id = client.track(tx("unreachable"));
    const result = await client.close();
    expect(watched.sent).toHaveLength(3);
    expect(result.delivered).toEqual([]);
    expect(result.failed).toEqual([
      {
        transaction: expect.objectContaining({ transaction_id: id }),
        reason: "retries_exhausted",
        error: expect.stringMatching(/gave up after 3 attempt\(s\); last: network error/),
      },
    ]);
  });

  it("retries a request that times out", async () => {
    const hanging = hangingPublisher();
    const gateway = await startTestGateway({ topicName: topic.topicName, publisher: hanging });
    try {
      const watched = watchedFetch();
      const client = createClient({
        baseUrl: gateway.baseUrl,
        apiKey: org.apiKey,
        fetch: watched.fetch,
        timeoutMs: 300,
        maxRetries: 1,
        ...fast,
      });
      client.track(tx("slow"));
      const result = await client.flush();
      expect(watched.sent).toHaveLength(2);
      expect(result.failed).toMatchObject([
        { reason: "retries_exhausted", error: expect.stringMatching(/no answer within 300 ms/) },
      ]);
    } finally {
      await gateway.close();
    }
  });
});
