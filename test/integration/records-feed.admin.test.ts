import type { RecordRow, RecordsFeed } from "@usage-ingestion/records";
import { handleMessage, publishRecords } from "@usage-ingestion/records";
import { TRANSPORTS } from "@usage-ingestion/shared/server";
import { describe, expect, it } from "vitest";
import { runAdmin } from "../../scripts/admin/main.ts";
import { validTransaction } from "../setup/fixtures.ts";
import { firestore, pullableTopic } from "../setup/harness.ts";
import { rowsOf, setUp, stored, unpricedUntilPriced } from "../setup/records-feed.ts";
import { recordsLatest } from "../setup/records-view.ts";
import { envelope, pushEvent, recordsFeed, workerDeps } from "../setup/worker.ts";

/** Every case runs on both transports (PUBSUB_PUBLISH_TRANSPORT), so that the fallback stays real. */
describe.each(TRANSPORTS)(
  "records feed from the command line on the %s transport: re-pricing and publishing a range again",
  (transport) => {
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
