import { PubSub } from "@google-cloud/pubsub";
import {
  handleMessage,
  pubSubRecordsFeed,
  type RecordRow,
  type RecordsFeed,
  recordRow,
} from "@usage-ingestion/records";
import { PublishTimeoutError, TRANSPORTS } from "@usage-ingestion/shared/server";
import { describe, expect, it } from "vitest";
import { validTransaction } from "../setup/fixtures.ts";
import { freeClosedPort, uniqueId } from "../setup/harness.ts";
import { rowsOf, setUp, stored } from "../setup/records-feed.ts";
import { recordsLatest } from "../setup/records-view.ts";
import { envelope, pushEvent, recordsFeed } from "../setup/worker.ts";

/** A row as published, but for the time it was published at. */
const withoutPublishTime = ({ published_at, ...row }: RecordRow) => {
  expect(Date.parse(published_at)).not.toBeNaN();
  return row;
};

/** Every case runs on both transports (PUBSUB_PUBLISH_TRANSPORT), so that the fallback stays real. */
describe.each(TRANSPORTS)(
  "records feed on the %s transport: every stored record is published to the records topic",
  (transport) => {
    it("publishes the stored record with its cost, line items, dimensions and revision 1", async () => {
      const { org, topic, deps } = await setUp(transport);
      const event = pushEvent(
        envelope(org, validTransaction({ context: { billable_customer_id: "cust-7", feature: "chat", team: "x" } })),
      );
      expect(await handleMessage(deps, event)).toBe("priced");

      const [message] = await topic.pull(1);
      const row = message?.data as RecordRow;
      const record = await stored(org, event.id as string);
      expect(withoutPublishTime(row)).toEqual(withoutPublishTime(recordRow(record, new Date())));
      expect(row).toMatchObject({
        message_id: event.id,
        revision: 1,
        organization_id: org,
        status: "priced",
        provider: "openai",
        model: "gpt-4o",
        billable_customer_id: "cust-7",
        dimensions: [{ name: "feature", value: "chat" }],
        cost_nanos: record.cost_nanos,
        cost_usd: record.cost_usd,
        repriced_at: null,
      });
      expect(row.cost_nanos).toBeGreaterThan(0);
      expect(row.line_items.map((item) => item.component)).toEqual(["input", "output"]);
      expect(row.line_items.reduce((sum, item) => sum + item.cost_nanos, 0)).toBe(row.cost_nanos);
      expect(row.quantities).toMatchObject({ input_tokens: 1200, output_tokens: 300 });
      expect(message?.attributes).toEqual({ organization_id: org, revision: "1" });
    });

    it("publishes the stored record again, after its own first row, when a redelivered message finds it stored", async () => {
      const { org, topic, deps } = await setUp(transport);
      const event = pushEvent(envelope(org, validTransaction({ transaction_id: uniqueId("tx") })));
      expect(await handleMessage(deps, event)).toBe("priced");
      const [first] = await rowsOf(topic, 1);
      expect(await handleMessage(deps, event)).toBe("redelivered");

      // The redelivery's own record, built afresh, went beside the commit; what Firestore holds follows it.
      const rows = await rowsOf(topic, 2);
      const shown = recordsLatest([first as RecordRow, ...rows]).get(event.id as string) as RecordRow;
      expect(withoutPublishTime(shown)).toEqual(withoutPublishTime(first as RecordRow));
      expect(shown).toMatchObject({ message_id: event.id, revision: 1, status: "priced" });
      expect(rows).toContain(shown);
    });

    it("publishes a repeated transaction id as the duplicate record Firestore holds", async () => {
      const { org, topic, deps } = await setUp(transport);
      const transaction = validTransaction({ transaction_id: uniqueId("tx") });
      const original = pushEvent(envelope(org, transaction));
      const repeat = pushEvent(envelope(org, transaction));
      expect(await handleMessage(deps, original)).toBe("priced");
      expect(await handleMessage(deps, repeat)).toBe("duplicate");

      // The repeat's row went out as priced beside the commit; the duplicate Firestore holds follows it.
      const rows = await rowsOf(topic, 3);
      expect(rows.filter((row) => row.message_id === repeat.id).map((row) => row.status)).toEqual(
        expect.arrayContaining(["priced", "duplicate"]),
      );
      const duplicate = recordsLatest(rows).get(repeat.id as string);
      expect(duplicate).toMatchObject({ status: "duplicate", duplicate_of: original.id, cost_nanos: null });
      expect(duplicate?.line_items).toEqual([]);
      expect(recordsLatest(rows).get(original.id as string)).toMatchObject({ status: "priced" });
    });

    it("fails the delivery when the feed does not confirm, and the redelivery publishes the stored record", async () => {
      const { org, topic, deps } = await setUp(transport);
      // A stand-in for a feed that is down: the test is about the worker's reaction to that failure.
      const down: RecordsFeed = {
        publish: () => Promise.reject(new Error("records topic unavailable")),
        withdraw: () => Promise.reject(new Error("records topic unavailable")),
        flush: async () => {},
      };
      const event = pushEvent(envelope(org, validTransaction()));
      await expect(handleMessage({ ...deps, feed: down }, event)).rejects.toThrow(/records topic unavailable/);
      // Stored before the publish: the redelivery does not store it again, it publishes it.
      expect((await stored(org, event.id as string)).status).toBe("priced");

      expect(await handleMessage(deps, event)).toBe("redelivered");
      const shown = recordsLatest(await rowsOf(topic, 2)).get(event.id as string) as RecordRow;
      expect(withoutPublishTime(shown)).toEqual(
        withoutPublishTime(recordRow(await stored(org, event.id as string), new Date())),
      );
    });

    it("fails the delivery when Pub/Sub refuses the publish, and the redelivery publishes the stored record", async () => {
      const { org, topic, deps } = await setUp(transport);
      const missing = recordsFeed(uniqueId("missing"), 10_000, transport);
      const event = pushEvent(envelope(org, validTransaction()));
      const started = Date.now();
      // NOT_FOUND is not retried: the delivery fails at once, its record stored.
      await expect(handleMessage({ ...deps, feed: missing }, event)).rejects.toMatchObject({ code: 5 });
      expect(Date.now() - started).toBeLessThan(5_000);
      expect((await stored(org, event.id as string)).status).toBe("priced");

      expect(await handleMessage(deps, event)).toBe("redelivered");
      const shown = recordsLatest(await rowsOf(topic, 2)).get(event.id as string);
      expect(shown).toMatchObject({ message_id: event.id, revision: 1, status: "priced" });
    });

    it("rejects within its time-out when Pub/Sub cannot be reached", async () => {
      const unreachable = new PubSub({
        projectId: "demo-unreachable",
        apiEndpoint: `127.0.0.1:${await freeClosedPort()}`,
      });
      const feed = pubSubRecordsFeed(unreachable, { topic: "anything", timeoutMs: 1_500, transport });
      const record = await (async () => {
        const { org, deps } = await setUp(transport);
        const event = pushEvent(envelope(org, validTransaction()));
        await handleMessage(deps, event);
        return stored(org, event.id as string);
      })();
      const started = Date.now();
      const error = await feed.publish(record).then(
        () => undefined,
        (failure: unknown) => failure as { code?: number },
      );
      const elapsed = Date.now() - started;
      // The last retry's UNAVAILABLE, or the feed's own bound; never later than the bound and a retry's wait.
      expect(error instanceof PublishTimeoutError || error?.code === 14).toBe(true);
      expect(elapsed).toBeLessThan(1_500 + 1_000);
      await unreachable.close();
    });

    it("confirms each of many records finished together, and each arrives once", async () => {
      const { org, topic, deps } = await setUp(transport);
      const events = Array.from({ length: 12 }, (_, index) => pushEvent(envelope(org, validTransaction(), index)));
      const outcomes = await Promise.all(events.map((event) => handleMessage(deps, event)));
      expect(outcomes).toEqual(events.map(() => "priced"));
      const rows = (await topic.pull(12)).map((message) => message.data as RecordRow);
      expect(rows.map((row) => row.message_id).sort()).toEqual(events.map((event) => event.id).sort());
    });
  },
);
