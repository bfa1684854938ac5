import { createClient, type DeliveryFailure, type TrackedTransaction } from "@usage-ingestion/client";
import { describe, expect, it } from "vitest";
import { delay } from "../../scripts/lib/processes.ts";
import { watchedFetch } from "../setup/client.ts";
import { validTransaction } from "../setup/fixtures.ts";
import { gatewayOnEmulators, startTestGateway } from "../setup/gateway.ts";
import { pubsub, uniqueId } from "../setup/harness.ts";

const tx = (customer: string) =>
  validTransaction({ context: { billable_customer_id: customer } }) as TrackedTransaction;
const customers = (body: Array<Record<string, unknown>>) =>
  body.map((t) => (t.context as { billable_customer_id: string }).billable_customer_id);

describe("client against the real gateway: buffering and sending", () => {
  const setup = gatewayOnEmulators();

  it("sends a bulk each time flushAt transactions wait, and the rest on flush", async () => {
    const watched = watchedFetch();
    const client = createClient({
      baseUrl: setup.gateway.baseUrl,
      apiKey: setup.org.apiKey,
      fetch: watched.fetch,
      flushAt: 2,
    });
    for (const name of ["a", "b", "c", "d", "e"]) client.track(tx(name));
    expect(watched.sent.map(customers)).toEqual([
      ["a", "b"],
      ["c", "d"],
    ]);
    const result = await client.flush();
    expect(watched.sent.map(customers)).toEqual([["a", "b"], ["c", "d"], ["e"]]);
    expect(watched.statuses).toEqual([202, 202, 202]);
    expect(result.failed).toEqual([]);
    expect(new Set(result.delivered.map((d) => d.message_id)).size).toBe(5);
    expect(await setup.topic.pull(5)).toHaveLength(5);
  });

  it("sends what waits once the interval has passed, without a flush", async () => {
    const watched = watchedFetch();
    const client = createClient({
      baseUrl: setup.gateway.baseUrl,
      apiKey: setup.org.apiKey,
      fetch: watched.fetch,
      flushIntervalMs: 50,
    });
    client.track(tx("timed-1"));
    client.track(tx("timed-2"));
    expect(watched.sent).toEqual([]);
    for (let waited = 0; watched.statuses.length === 0 && waited < 5_000; waited += 25) await delay(25);
    expect(watched.sent.map(customers)).toEqual([["timed-1", "timed-2"]]);
    expect((await client.flush()).delivered).toHaveLength(2);
    expect(await setup.topic.pull(2)).toHaveLength(2);
  });

  it("never puts more than 1000 transactions in one request", async () => {
    // A topic without subscriptions: Pub/Sub keeps nothing of the 1001 messages.
    const [bare] = await pubsub().createTopic(uniqueId("bulk"));
    const bulkGateway = await startTestGateway({ topicName: bare.name.split("/").pop() as string });
    try {
      const watched = watchedFetch();
      const client = createClient({
        baseUrl: bulkGateway.baseUrl,
        apiKey: setup.org.apiKey,
        fetch: watched.fetch,
        flushAt: 5000,
      });
      for (let i = 0; i < 1001; i++) client.track(tx(`bulk-${i}`));
      const result = await client.flush();
      expect(watched.sent.map((body) => body.length)).toEqual([1000, 1]);
      expect(watched.statuses).toEqual([202, 202]);
      expect(new Set(result.delivered.map((d) => d.message_id)).size).toBe(1001);
    } finally {
      await bulkGateway.close();
    }
  });

  it("keeps the caller's transaction_id, gives one to every other transaction, and returns it", async () => {
    const watched = watchedFetch();
    const client = createClient({ baseUrl: setup.gateway.baseUrl, apiKey: setup.org.apiKey, fetch: watched.fetch });
    const own = client.track({ ...tx("own"), transaction_id: "chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG" });
    const given = client.track(tx("given"));
    await client.flush();
    expect(own).toBe("chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG");
    expect(given).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(watched.sent[0]?.map((t) => t.transaction_id)).toEqual([own, given]);
    await setup.topic.pull(2);
  });

  it("reports a transaction that cannot be sent as JSON at once, and sends the others", async () => {
    const reported: DeliveryFailure[] = [];
    const client = createClient({
      baseUrl: setup.gateway.baseUrl,
      apiKey: setup.org.apiKey,
      onError: (f) => reported.push(...f),
    });
    const bad = { ...tx("bigint"), context: { billable_customer_id: "bigint", tokens: 10n } } as TrackedTransaction;
    client.track(bad);
    client.track(tx("fine"));
    expect(reported).toMatchObject([{ reason: "invalid", error: expect.stringMatching(/^cannot be sent as JSON/) }]);
    const result = await client.flush();
    expect(result.delivered).toHaveLength(1);
    expect(result.failed).toEqual(reported);
    await setup.topic.pull(1);
  });

  it("after close, reports what it is given instead of dropping it", async () => {
    const reported: DeliveryFailure[] = [];
    const client = createClient({
      baseUrl: setup.gateway.baseUrl,
      apiKey: setup.org.apiKey,
      onError: (failures) => reported.push(...failures),
    });
    client.track(tx("before-close"));
    const closing = await client.close();
    expect(closing.delivered).toHaveLength(1);
    client.track(tx("after-close"));
    expect(reported).toMatchObject([
      { reason: "closed", transaction: { context: { billable_customer_id: "after-close" } } },
    ]);
    expect((await client.flush()).failed).toEqual(reported);
    await setup.topic.pull(1);
  });
});
