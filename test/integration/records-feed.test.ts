import { PubSub } from "@google-cloud/pubsub";
import { type CostRecord, DOCUMENT_PATHS, type RecordRow, recordRow } from "@usage-ingestion/shared";
import { PublishTimeoutError, TRANSPORTS, type Transport } from "@usage-ingestion/shared/server";
import { describe, expect, it } from "vitest";
import { runAdmin } from "../../scripts/admin/main.ts";
import { publishRecords } from "../../scripts/admin/records-publish.ts";
import { pubSubRecordsFeed, type RecordsFeed } from "../../services/cost-worker/src/feed/records-feed.ts";
import { handleMessage } from "../../services/cost-worker/src/handler.ts";
import { validTransaction } from "../setup/fixtures.ts";
import { firestore, freeClosedPort, pullableTopic, uniqueId } from "../setup/harness.ts";
import { recordsLatest } from "../setup/records-view.ts";
import { envelope, pushEvent, recordsFeed, workerDeps } from "../setup/worker.ts";

/**
 * An organization declaring `feature`, and a records topic of its own with a pull subscription on it, fed
 * on `transport`.
 */
async function setUp(transport: Transport) {
  const org = uniqueId("org");
  await runAdmin(["org", "create", org], firestore(), () => {});
  await runAdmin(["org", "dimensions", "set", org, "feature"], firestore(), () => {});
  const topic = await pullableTopic();
  const feed = recordsFeed(topic.topicName, 10_000, transport);
  return { org, topic, feed, deps: workerDeps(firestore(), 10_000, 0, undefined, feed) };
}

const stored = async (org: string, messageId: string) =>
  (await firestore().doc(DOCUMENT_PATHS.transaction(org, messageId)).get()).data() as CostRecord;

/** The rows of `count` messages pulled from `topic`. */
const rowsOf = async (topic: { pull(count: number): Promise<Array<{ data: unknown }>> }, count: number) =>
  (await topic.pull(count)).map((message) => message.data as RecordRow);

/** A row as published, but for the time it was published at. */
const withoutPublishTime = ({ published_at, ...row }: RecordRow) => {
  expect(Date.parse(published_at)).not.toBeNaN();
  return row;
};

const house = validTransaction({
  provider: "custom",
  model: "house",
  usage: [{ type: "custom", metrics: { units: 4 } }],
  context: { billable_customer_id: "cust-9", feature: "search" },
});

/** A record of `house` stored unpriced, then the organization's price for it added (0.25 USD a unit). */
async function unpricedUntilPriced(org: string, deps: Parameters<typeof handleMessage>[0]) {
  const event = pushEvent(envelope(org, house));
  expect(await handleMessage(deps, event)).toBe("unpriced");
  await runAdmin(["pricing", "add", org, '{"provider":"custom","model":"house","unit":"0.25"}'], firestore(), () => {});
  return event;
}

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

    it("publishes a re-priced record with revision 2, and a later redelivery publishes revision 2 too", async () => {
      const { org, topic, feed, deps } = await setUp(transport);
      const event = await unpricedUntilPriced(org, deps);
      const lines: string[] = [];
      await runAdmin(["reprice", org], firestore(), (line) => lines.push(line), { records: () => feed });
      expect(lines.at(-1)).toBe("1 record re-priced, 0 still unpriced");

      const record = await stored(org, event.id as string);
      expect(record).toMatchObject({ status: "priced", revision: 2, cost_nanos: 1_000_000_000 });
      const [unpriced, repriced] = (await topic.pull(2)).map((message) => message.data as RecordRow);
      expect(unpriced).toMatchObject({ message_id: event.id, revision: 1, status: "unpriced", cost_nanos: null });
      expect(repriced).toMatchObject({
        message_id: event.id,
        revision: 2,
        status: "priced",
        cost_nanos: 1_000_000_000,
        cost_usd: "1.000000000",
        repriced_at: record.repriced_at,
        billable_customer_id: "cust-9",
        dimensions: [{ name: "feature", value: "search" }],
        quantities: expect.objectContaining({ custom_units: 4 }),
      });

      // A redelivery of the original message publishes what Firestore holds after its own revision 1 row:
      // the view shows revision 2, never the stale revision 1.
      expect(await handleMessage(deps, event)).toBe("redelivered");
      const again = await rowsOf(topic, 2);
      expect(again.map((row) => row.revision).sort()).toEqual([1, 2]);
      expect(recordsLatest([unpriced, repriced, ...again] as RecordRow[]).get(event.id as string)).toMatchObject({
        revision: 2,
        status: "priced",
        cost_nanos: 1_000_000_000,
      });
    });

    it("says which records a re-pricing could not publish, and how to publish them, keeping the re-pricing", async () => {
      const { org, topic, feed, deps } = await setUp(transport);
      const event = await unpricedUntilPriced(org, deps);
      // A stand-in for a records topic that is down: the test is about the command's reaction to it.
      const down: RecordsFeed = {
        publish: () => Promise.reject(new Error("topic unavailable")),
        withdraw: () => Promise.reject(new Error("topic unavailable")),
        flush: async () => {},
      };
      const lines: string[] = [];
      const run = runAdmin(["reprice", org], firestore(), (line) => lines.push(line), { records: () => down });
      await expect(run).rejects.toThrow(
        `1 record re-priced but not published to the records topic (topic unavailable); publish them with: npm run admin -- records publish ${org} --from 2025-11-01T12:00:00.000Z --to 2025-11-01T12:00:00.001Z`,
      );
      expect(lines.at(-1)).toBe("1 record re-priced, 0 still unpriced");
      expect(await stored(org, event.id as string)).toMatchObject({ status: "priced", revision: 2 });

      // The command it names publishes the re-priced revision.
      expect((await topic.pull(1))[0]?.data).toMatchObject({ revision: 1, status: "unpriced" });
      await runAdmin(
        ["records", "publish", org, "--from", "2025-11-01T12:00:00.000Z", "--to", "2025-11-01T12:00:00.001Z"],
        firestore(),
        () => {},
        { records: () => feed },
      );
      expect((await topic.pull(1))[0]?.data).toMatchObject({ message_id: event.id, revision: 2, status: "priced" });
    });

    it("publishes an organization's records of a time range again, a page at a time", async () => {
      const { org, topic, feed } = await setUp(transport);
      // Stored without a feed to see them: as records stored before the feed existed.
      const quiet = workerDeps(
        firestore(),
        10_000,
        0,
        undefined,
        recordsFeed((await pullableTopic()).topicName, 10_000, transport),
      );
      const received = ["2025-11-01T10:00:00.000Z", "2025-11-01T11:00:00.000Z", "2025-11-01T12:00:00.000Z"];
      const ids: string[] = [];
      for (const [index, time] of [...received, "2025-11-02T00:00:00.000Z"].entries()) {
        const event = pushEvent({ ...envelope(org, validTransaction(), index), received_at: time });
        expect(await handleMessage(quiet, event)).toBe("priced");
        ids.push(event.id as string);
      }

      const pages: number[] = [];
      const result = await publishRecords(firestore(), org, feed, {
        from: "2025-11-01T00:00:00.000Z",
        to: "2025-11-02T00:00:00.000Z",
        pageSize: 2,
        onPage: (published) => pages.push(published),
      });
      expect(result).toEqual({ published: 3 });
      expect(pages).toEqual([2, 3]);
      const rows = (await topic.pull(3)).map((message) => message.data as RecordRow);
      expect(rows.map((row) => row.message_id).sort()).toEqual(ids.slice(0, 3).sort());
      expect(rows.map((row) => row.received_at).sort()).toEqual(received);

      const lines: string[] = [];
      await runAdmin(
        ["records", "publish", org, "--from", "2025-11-02T00:00:00Z", "--to", "2025-11-03T00:00:00Z"],
        firestore(),
        (line) => lines.push(line),
        { records: () => feed },
      );
      expect(lines.at(-1)).toBe(
        `published 1 records of ${org} received from 2025-11-02T00:00:00.000Z to 2025-11-03T00:00:00.000Z`,
      );
      const [last] = await topic.pull(1);
      expect(last?.data).toMatchObject({ message_id: ids[3] });
    });

    it("publishes from the command line to the topic and on the transport the environment names", async () => {
      const { org, topic, deps } = await setUp(transport);
      const event = pushEvent(envelope(org, validTransaction()));
      expect(await handleMessage(deps, event)).toBe("priced");
      await topic.pull(1);
      const saved = { topic: process.env.RECORDS_TOPIC, transport: process.env.PUBSUB_PUBLISH_TRANSPORT };
      Object.assign(process.env, { RECORDS_TOPIC: topic.topicName, PUBSUB_PUBLISH_TRANSPORT: transport });
      try {
        const { received_at } = await stored(org, event.id as string);
        const to = new Date(Date.parse(received_at) + 1).toISOString();
        await runAdmin(["records", "publish", org, "--from", received_at, "--to", to], firestore(), () => {});
        expect((await topic.pull(1))[0]?.data).toMatchObject({ message_id: event.id, revision: 1 });
        process.env.PUBSUB_PUBLISH_TRANSPORT = "carrier-pigeon";
        await expect(
          runAdmin(["records", "publish", org, "--from", received_at, "--to", to], firestore(), () => {}),
        ).rejects.toThrow(/PUBSUB_PUBLISH_TRANSPORT must be "wire" or "client"/);
      } finally {
        for (const [name, value] of [
          ["RECORDS_TOPIC", saved.topic],
          ["PUBSUB_PUBLISH_TRANSPORT", saved.transport],
        ] as const) {
          if (value === undefined) delete process.env[name];
          else process.env[name] = value;
        }
      }
    });

    it("refuses a backfill without a range, or with one that ends before it starts", async () => {
      const { org, feed } = await setUp(transport);
      const run = (...args: string[]) =>
        runAdmin(["records", "publish", org, ...args], firestore(), () => {}, {
          records: () => feed,
        });
      await expect(run("--from", "2025-11-01T00:00:00Z")).rejects.toThrow(/usage: .*--from ISO --to ISO/);
      await expect(run("--from", "yesterday", "--to", "2025-11-01T00:00:00Z")).rejects.toThrow(/--from must be an ISO/);
      await expect(run("--from", "2025-11-02T00:00:00Z", "--to", "2025-11-01T00:00:00Z")).rejects.toThrow(
        /--from must be before --to/,
      );
    });
  },
);
