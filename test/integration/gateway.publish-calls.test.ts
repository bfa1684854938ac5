import { describe, expect, it } from "vitest";
import { pubSubBatcher } from "../../services/gateway/src/queue/pubsub-batcher.ts";
import { pubsub, pullableTopic, uniqueId } from "../setup/harness.ts";

const message = (n: number) => ({ data: Buffer.from(JSON.stringify({ n })), attributes: { n: String(n) } });

describe("the gateway's publish calls, on the Pub/Sub emulator", () => {
  it("confirms each message of one turn with its own id, and every message arrives once", async () => {
    const topic = await pullableTopic();
    const batcher = pubSubBatcher(pubsub(), { topic: topic.topicName, timeoutMs: 10_000, batchMaxMs: 0 });
    const ids = await Promise.all([1, 2, 3].map((n) => batcher.publish(message(n))));
    expect(new Set(ids).size).toBe(3);
    const pulled = await topic.pull(3);
    expect(pulled.map((m) => m.id).sort()).toEqual([...ids].sort());
    expect(pulled.map((m) => m.attributes.n).sort()).toEqual(["1", "2", "3"]);
  });

  it("holds messages for the batching window, then confirms them all", async () => {
    const topic = await pullableTopic();
    const batcher = pubSubBatcher(pubsub(), { topic: topic.topicName, timeoutMs: 10_000, batchMaxMs: 20 });
    const first = batcher.publish(message(1));
    await new Promise((resolve) => setTimeout(resolve, 5));
    const ids = await Promise.all([first, batcher.publish(message(2))]);
    expect(ids.every((id) => typeof id === "string" && id.length > 0)).toBe(true);
    expect((await topic.pull(2)).map((m) => m.id).sort()).toEqual([...ids].sort());
  });

  it("fails every message of a call that Pub/Sub refuses, and none is confirmed", async () => {
    const batcher = pubSubBatcher(pubsub(), { topic: uniqueId("missing"), timeoutMs: 10_000, batchMaxMs: 0 });
    const settled = await Promise.allSettled([1, 2, 3].map((n) => batcher.publish(message(n))));
    expect(settled.map((s) => s.status)).toEqual(["rejected", "rejected", "rejected"]);
  });

  it("flush sends what is waiting and settles once it is confirmed", async () => {
    const topic = await pullableTopic();
    const batcher = pubSubBatcher(pubsub(), { topic: topic.topicName, timeoutMs: 10_000, batchMaxMs: 60_000 });
    const published = batcher.publish(message(7));
    await batcher.flush();
    await expect(published).resolves.toMatch(/\S/);
  });
});
