import { v1 } from "@google-cloud/pubsub";
import { handleMessage } from "@usage-ingestion/records";
import { UserError } from "@usage-ingestion/shared";
import { describe, expect, it } from "vitest";
import { runAdmin } from "../../scripts/admin/main.ts";
import { freePort, waitFor } from "../../scripts/lib/processes.ts";
import { defaultTopologyNames } from "../../scripts/lib/topology.ts";
import { validTransaction } from "../setup/fixtures.ts";
import { firestore, pubsub, pullableTopic, seedOrganization, uniqueId } from "../setup/harness.ts";
import { envelope, pushEvent, recordsFeed, workerDeps } from "../setup/worker.ts";

async function admin(...args: string[]) {
  const lines: string[] = [];
  await runAdmin(args, firestore(), (line) => lines.push(line), { pubsub });
  return lines;
}

/**
 * Real dead letters: the emulator forwards a message to the dead-letter topic after 5 failed pushes when
 * the subscription has no retry policy (docs/local-development.md, "Pub/Sub emulator behaviour"); here nothing listens.
 */
async function deadLettered(organizationId: string, count: number) {
  const names = defaultTopologyNames(uniqueId("dl"));
  const [topic] = await pubsub().createTopic(names.topic);
  const [deadTopic] = await pubsub().createTopic(names.deadLetterTopic);
  await deadTopic.createSubscription(names.deadLetterSubscription);
  await topic.createSubscription(names.subscription, {
    pushConfig: { pushEndpoint: `http://127.0.0.1:${await freePort()}/` },
    deadLetterPolicy: { deadLetterTopic: deadTopic.name, maxDeliveryAttempts: 5 },
  });
  const attributes = { organization_id: organizationId, schema_version: "1" };
  const envelopes = Array.from({ length: count }, () => envelope(organizationId, validTransaction()));
  for (const json of envelopes) await topic.publishMessage({ json, attributes });
  await waitFor(
    async () => (await admin("dead-letters", "list", "--topic", names.topic)).length === count + 1,
    30_000,
    () => "the emulator did not dead-letter the messages",
  );
  // Created now, so it sees only what is replayed.
  const [replays] = await topic.createSubscription(uniqueId("replays"));
  const pullReplays = async () => {
    const client = new v1.SubscriberClient(
      (await pubsub().getClientConfig()) as ConstructorParameters<typeof v1.SubscriberClient>[0],
    );
    const [response] = await client.pull({ subscription: replays.name, maxMessages: 100, returnImmediately: true });
    await client.close();
    return (response.receivedMessages ?? []).map((item) => ({
      data: JSON.parse(Buffer.from(item.message?.data ?? "").toString("utf8")),
      attributes: item.message?.attributes,
    }));
  };
  return { names, envelopes, attributes, pullReplays };
}

describe("admin dead-letters on the Pub/Sub emulator", () => {
  it("lists dead letters without losing them and replays one, then all, with their data and attributes", async () => {
    const org = await seedOrganization();
    const { names, envelopes, attributes, pullReplays } = await deadLettered(org.organizationId, 3);
    const topic = ["--topic", names.topic];

    const listed = await admin("dead-letters", "list", ...topic);
    expect(listed.at(-1)).toBe(`3 dead letter(s) in ${names.deadLetterSubscription}; all kept`);
    for (const line of listed.slice(0, 3)) {
      expect(line).toMatch(
        new RegExp(
          `^\\S+\\t${org.organizationId}\\tattempts 5\\treceived 2025-11-01T12:00:00.000Z\\t\\{"schema_version":1,`,
        ),
      );
    }
    expect(await admin("dead-letters", "list", ...topic)).toEqual(listed);

    const firstId = listed[0]?.split("\t")[0] as string;
    const one = await admin("dead-letters", "replay", ...topic, firstId);
    expect(one[0]).toMatch(new RegExp(`^replayed ${firstId} onto ${names.topic} as \\S+$`));
    expect(await admin("dead-letters", "list", ...topic)).toHaveLength(3);

    const rest = await admin("dead-letters", "replay", "--all", ...topic);
    expect(rest.at(-1)).toBe("replayed 2 dead letter(s), skipped 0 already stored");
    expect(await admin("dead-letters", "list", ...topic)).toEqual([
      `no dead letters in ${names.deadLetterSubscription}`,
    ]);

    const replayed = await pullReplays();
    expect(replayed.map((m) => m.data.request_id).sort()).toEqual(envelopes.map((e) => e.request_id).sort());
    for (const message of replayed) expect(message.attributes).toEqual(attributes);
  }, 60_000);

  it("removes without republishing a dead letter whose transaction is already stored, publishing its record", async () => {
    const org = await seedOrganization();
    const { names, envelopes, pullReplays } = await deadLettered(org.organizationId, 1);
    // The write of a delivery that timed out landed after all: the record exists.
    const event = pushEvent(envelopes[0]);
    expect(await handleMessage(workerDeps(), event)).toBe("priced");

    // The record is published to the records feed (its publish may have been what kept failing).
    const records = await pullableTopic();
    const lines: string[] = [];
    await runAdmin(
      ["dead-letters", "replay", "--all", "--topic", names.topic],
      firestore(),
      (line) => lines.push(line),
      {
        pubsub,
        records: () => recordsFeed(records.topicName),
      },
    );
    expect(lines[0]).toMatch(/^skipped \S+: its transaction is already stored \(record m-[0-9a-f-]+\)/);
    expect(await pullReplays()).toEqual([]);
    const [published] = await records.pull(1);
    expect(published?.data).toMatchObject({ message_id: event.id, status: "priced", revision: 1 });
    expect(await admin("dead-letters", "list", "--topic", names.topic)).toEqual([
      `no dead letters in ${names.deadLetterSubscription}`,
    ]);
  }, 60_000);

  it("refuses mistakes with a clear message", async () => {
    const topic = ["--topic", uniqueId("none")];
    await expect(admin("dead-letters", "replay")).rejects.toThrow(/usage: npm run admin -- dead-letters replay/);
    await expect(admin("dead-letters", "replay", "--all", "some-id")).rejects.toBeInstanceOf(UserError);
    await expect(admin("dead-letters", "list", "--topic")).rejects.toThrow(/--topic needs a value/);
    await expect(admin("dead-letters", "list", ...topic)).rejects.toThrow(/does not exist/);
    const org = await seedOrganization();
    const { names } = await deadLettered(org.organizationId, 1);
    await expect(admin("dead-letters", "replay", "--topic", names.topic, "no-such-id")).rejects.toThrow(
      /no dead letter has the id no-such-id/,
    );
    expect(await admin("dead-letters", "list", "--topic", names.topic)).toHaveLength(2);
  }, 60_000);
});
