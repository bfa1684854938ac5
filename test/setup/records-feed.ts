import type { RecordRow } from "@usage-ingestion/records";
import { handleMessage } from "@usage-ingestion/records";
import { type CostRecord, DOCUMENT_PATHS } from "@usage-ingestion/shared";
import type { Transport } from "@usage-ingestion/shared/server";
import { expect } from "vitest";
import { runAdmin } from "../../scripts/admin/main.ts";
import { validTransaction } from "./fixtures.ts";
import { firestore, pullableTopic, uniqueId } from "./harness.ts";
import { envelope, pushEvent, recordsFeed, workerDeps } from "./worker.ts";

// What the records feed's tests share: the worker's publishing and the command line's.

/**
 * An organization declaring `feature`, and a records topic of its own with a pull subscription on it, fed
 * on `transport`.
 */
export async function setUp(transport: Transport) {
  const org = uniqueId("org");
  await runAdmin(["org", "create", org], firestore(), () => {});
  await runAdmin(["org", "dimensions", "set", org, "feature"], firestore(), () => {});
  const topic = await pullableTopic();
  const feed = recordsFeed(topic.topicName, 10_000, transport);
  return { org, topic, feed, deps: workerDeps(firestore(), 10_000, 0, undefined, feed) };
}

export const stored = async (org: string, messageId: string) =>
  (await firestore().doc(DOCUMENT_PATHS.transaction(org, messageId)).get()).data() as CostRecord;

/** The rows of `count` messages pulled from `topic`. */
export const rowsOf = async (topic: { pull(count: number): Promise<Array<{ data: unknown }>> }, count: number) =>
  (await topic.pull(count)).map((message) => message.data as RecordRow);

export const house = validTransaction({
  provider: "custom",
  model: "house",
  usage: [{ type: "custom", metrics: { units: 4 } }],
  context: { billable_customer_id: "cust-9", feature: "search" },
});

/** A record of `house` stored unpriced, then the organization's price for it added (0.25 USD a unit). */
export async function unpricedUntilPriced(org: string, deps: Parameters<typeof handleMessage>[0]) {
  const event = pushEvent(envelope(org, house));
  expect(await handleMessage(deps, event)).toBe("unpriced");
  await runAdmin(["pricing", "add", org, '{"provider":"custom","model":"house","unit":"0.25"}'], firestore(), () => {});
  return event;
}
