import { PubSub } from "@google-cloud/pubsub";
import {
  type BatcherOptions,
  type OutgoingMessage,
  PublishTimeoutError,
  publishBatcher,
  TRANSPORTS,
} from "@usage-ingestion/shared/server";
import { describe, expect, it } from "vitest";
import { freeClosedPort, pubsub, pullableTopic, uniqueId } from "../setup/harness.ts";

const attributes = { organization_id: "org-ü", schema_version: "1" };
const message = (n: number, text = "plain"): OutgoingMessage => ({ data: JSON.stringify({ n, text }), attributes });
const idOf = (outcome: { id: string } | { error: unknown }) => ("id" in outcome ? outcome.id : undefined);

/** Every case runs on both transports (PUBSUB_PUBLISH_TRANSPORT), so that the fallback stays real. */

describe.each(TRANSPORTS)(
  "publish calls (the gateway's, the records feed's) on the %s transport, on the Pub/Sub emulator",
  (transport) => {
    const batcherOf = (client: PubSub, options: BatcherOptions) => publishBatcher(transport, client, options);
    it("confirms each message of a request with its own id, in order, and every message arrives once, intact", async () => {
      const topic = await pullableTopic();
      const batcher = batcherOf(pubsub(), { topic: topic.topicName, timeoutMs: 10_000, batchMaxMs: 0 });
      const texts = ["plain", "café ☕ 𝄞", '\u0000 and \\ and "'];
      const outcomes = await batcher.publish(texts.map((text, n) => message(n, text)));
      const ids = outcomes.map(idOf);
      expect(ids.every((id) => typeof id === "string" && id.length > 0)).toBe(true);
      expect(new Set(ids).size).toBe(3);
      const pulled = await topic.pull(3);
      expect(pulled).toHaveLength(3);
      for (const [n, text] of texts.entries()) {
        const arrived = pulled.find((m) => m.id === ids[n]);
        expect(arrived?.data).toEqual({ n, text });
        expect(arrived?.attributes).toEqual(attributes);
      }
    });

    it("lets requests that arrive within the batching window share a call, each confirmed", async () => {
      const topic = await pullableTopic();
      const batcher = batcherOf(pubsub(), { topic: topic.topicName, timeoutMs: 10_000, batchMaxMs: 20 });
      const first = batcher.publish([message(1)]);
      await new Promise((resolve) => setTimeout(resolve, 5));
      const [a, b] = await Promise.all([first, batcher.publish([message(2), message(3)])]);
      const ids = [...(a ?? []), ...(b ?? [])].map(idOf);
      expect(ids.every((id) => typeof id === "string" && id.length > 0)).toBe(true);
      expect((await topic.pull(3)).map((m) => m.id).sort()).toEqual([...ids].sort());
    });

    it("splits a batch over Pub/Sub's 1000 messages per call, and confirms all of them", async () => {
      const topic = await pullableTopic();
      const batcher = batcherOf(pubsub(), { topic: topic.topicName, timeoutMs: 20_000, batchMaxMs: 50 });
      const requests = await Promise.all(
        [0, 1].map((r) => batcher.publish(Array.from({ length: 600 }, (_, n) => message(r * 600 + n)))),
      );
      const ids = requests.flat().map(idOf);
      expect(ids.filter(Boolean)).toHaveLength(1200);
      expect(new Set(ids).size).toBe(1200);
    });

    it("fails every message of a call that Pub/Sub refuses, at once, and none is confirmed", async () => {
      const batcher = batcherOf(pubsub(), { topic: uniqueId("missing"), timeoutMs: 10_000, batchMaxMs: 0 });
      const started = Date.now();
      const outcomes = await batcher.publish([1, 2, 3].map((n) => message(n)));
      expect(outcomes.map(idOf)).toEqual([undefined, undefined, undefined]);
      expect(outcomes[0]).toEqual({ error: expect.objectContaining({ code: 5 }) });
      // NOT_FOUND is not retried.
      expect(Date.now() - started).toBeLessThan(5_000);
    });

    it("retries an unreachable Pub/Sub while the request's time allows, then fails what is not confirmed", async () => {
      const unreachable = new PubSub({
        projectId: "demo-unreachable",
        apiEndpoint: `127.0.0.1:${await freeClosedPort()}`,
      });
      const batcher = batcherOf(unreachable, { topic: "anything", timeoutMs: 1_500, batchMaxMs: 0 });
      const started = Date.now();
      const outcomes = await batcher.publish([message(1), message(2)]);
      const elapsed = Date.now() - started;
      expect(outcomes.map(idOf)).toEqual([undefined, undefined]);
      const [first] = outcomes as Array<{ error: { code?: number } }>;
      // Either the last retry's UNAVAILABLE, or the request's own bound; never sooner than a retry would wait.
      expect(first?.error instanceof PublishTimeoutError || first?.error.code === 14).toBe(true);
      expect(elapsed).toBeGreaterThanOrEqual(100);
      expect(elapsed).toBeLessThan(1_500 + 1_000);
      await unreachable.close();
    });

    it("flush sends what is waiting and settles once it is confirmed", async () => {
      const topic = await pullableTopic();
      const batcher = batcherOf(pubsub(), { topic: topic.topicName, timeoutMs: 10_000, batchMaxMs: 60_000 });
      const published = batcher.publish([message(7)]);
      await batcher.flush();
      expect((await published).map(idOf)[0]).toMatch(/\S/);
    });

    it("close sends what is waiting, and a call after it opens a new connection", async () => {
      const topic = await pullableTopic();
      const batcher = batcherOf(pubsub(), { topic: topic.topicName, timeoutMs: 10_000, batchMaxMs: 60_000 });
      const published = batcher.publish([message(8)]);
      await batcher.close();
      const [first] = (await published).map(idOf);
      expect(first).toMatch(/\S/);
      const again = batcher.publish([message(9)]);
      await batcher.flush();
      const [second] = (await again).map(idOf);
      expect(second).toMatch(/\S/);
      expect((await topic.pull(2)).map((m) => m.id).sort()).toEqual([first, second].sort());
      await batcher.close();
    });
  },
);
