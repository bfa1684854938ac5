import type { RecordStore } from "@usage-ingestion/records";
import { handleMessage, type RecordRow, recordRow, WITHDRAWN } from "@usage-ingestion/records";
import { type CostRecord, DOCUMENT_PATHS } from "@usage-ingestion/shared";
import { TRANSPORTS, type Transport } from "@usage-ingestion/shared/server";
import { describe, expect, it } from "vitest";
import { runAdmin } from "../../scripts/admin/main.ts";
import { validTransaction } from "../setup/fixtures.ts";
import { firestore, pullableTopic, uniqueId } from "../setup/harness.ts";
import { recordsLatest } from "../setup/records-view.ts";
import { envelope, pushEvent, recordsFeed, workerDeps } from "../setup/worker.ts";

/**
 * The record's row leaves beside its commit (docs/decisions/0017): what BigQuery's view shows of a message
 * once the worker is done with it, when the commit does not store the record as built.
 */
async function setUp(transport: Transport) {
  const org = uniqueId("org");
  await runAdmin(["org", "create", org], firestore(), () => {});
  const topic = await pullableTopic();
  const deps = workerDeps(firestore(), 10_000, 0, undefined, recordsFeed(topic.topicName, 10_000, transport));
  const rows = async (count: number) => (await topic.pull(count)).map((message) => message.data as RecordRow);
  return { org, deps, rows };
}

const storedAt = async (org: string, messageId: string) =>
  (await firestore().doc(DOCUMENT_PATHS.transaction(org, messageId)).get()).data() as CostRecord | undefined;

const withoutPublishTime = ({ published_at: _, ...row }: RecordRow) => row;

/** A Firestore failure as the commit reports it, with its gRPC code. */
const failure = (code: number, text: string) => Object.assign(new Error(text), { code });

describe.each(TRANSPORTS)("a record's row published beside its commit, on the %s transport", (transport) => {
  it("is withdrawn when Firestore refuses the record, and the message is kept as rejected", async () => {
    const { org, deps, rows } = await setUp(transport);
    // A stand-in for Firestore refusing the record as given (INVALID_ARGUMENT): a record the emulator
    // refuses (over 1 MiB) would be refused as a rejected message too, its data being as large.
    const refusing: RecordStore = {
      ...deps.records,
      store: () => Promise.reject(failure(3, "the record is not storable")),
    };
    const event = pushEvent(envelope(org, validTransaction()));
    expect(await handleMessage({ ...deps, records: refusing }, event)).toBe("rejected");

    expect(await storedAt(org, event.id as string)).toBeUndefined();
    const rejected = await firestore()
      .doc(DOCUMENT_PATHS.rejectedMessage(event.id as string))
      .get();
    expect(rejected.data()?.reason).toBe("Firestore refused the record: the record is not storable");
    const published = await rows(2);
    expect(published.map((row) => row.status).sort()).toEqual(["priced", WITHDRAWN]);
    expect(recordsLatest(published).has(event.id as string)).toBe(false);
  });

  it("is withdrawn when the commit fails, and the redelivery's stored record is what the view shows", async () => {
    const { org, deps, rows } = await setUp(transport);
    // A stand-in for a Firestore that is down: the test is about the worker's reaction to that failure.
    const down: RecordStore = { ...deps.records, store: () => Promise.reject(failure(14, "Firestore unavailable")) };
    const event = pushEvent(envelope(org, validTransaction()));
    await expect(handleMessage({ ...deps, records: down }, event)).rejects.toThrow(/Firestore unavailable/);
    const first = await rows(2);
    expect(recordsLatest(first).has(event.id as string)).toBe(false);

    expect(await handleMessage(deps, event)).toBe("priced");
    const stored = (await storedAt(org, event.id as string)) as CostRecord;
    const shown = recordsLatest([...first, ...(await rows(1))]).get(event.id as string) as RecordRow;
    expect(withoutPublishTime(shown)).toEqual(withoutPublishTime(recordRow(stored, new Date())));
  });

  it("is withdrawn when a commit that landed failed to answer, until the redelivery publishes it again", async () => {
    const { org, deps, rows } = await setUp(transport);
    // A stand-in for a commit Firestore applied but whose answer was lost: stored, then DEADLINE_EXCEEDED.
    const lost: RecordStore = {
      ...deps.records,
      store: async (toStore) => {
        await deps.records.store(toStore);
        throw failure(4, "Firestore took too long");
      },
    };
    const event = pushEvent(envelope(org, validTransaction()));
    await expect(handleMessage({ ...deps, records: lost }, event)).rejects.toThrow(/took too long/);
    const stored = (await storedAt(org, event.id as string)) as CostRecord;
    expect(stored.status).toBe("priced");
    // The residual risk (decision 0017): stored, but left out of the view until the message comes back.
    const first = await rows(2);
    expect(recordsLatest(first).has(event.id as string)).toBe(false);

    expect(await handleMessage(deps, event)).toBe("redelivered");
    const shown = recordsLatest([...first, ...(await rows(2))]).get(event.id as string) as RecordRow;
    expect(withoutPublishTime(shown)).toEqual(withoutPublishTime(recordRow(stored, new Date())));
  });

  it("fails the delivery when the withdrawal cannot be published, so the message comes back", async () => {
    const { org, deps, rows } = await setUp(transport);
    const down: RecordStore = { ...deps.records, store: () => Promise.reject(failure(14, "Firestore unavailable")) };
    const refused = new Error("records topic unavailable");
    // Stand-ins for both failing at once: the row went out, its withdrawal does not.
    const feed = { ...deps.feed, withdraw: () => Promise.reject(refused) };
    const event = pushEvent(envelope(org, validTransaction()));
    await expect(handleMessage({ ...deps, records: down, feed }, event)).rejects.toBe(refused);
    expect(recordsLatest(await rows(1)).get(event.id as string)).toMatchObject({ status: "priced" });

    // Nothing was stored: the redelivery stores the record, and its row is the one shown.
    expect(await handleMessage(deps, event)).toBe("priced");
    const shown = recordsLatest(await rows(1)).get(event.id as string) as RecordRow;
    expect(withoutPublishTime(shown)).toEqual(
      withoutPublishTime(recordRow((await storedAt(org, event.id as string)) as CostRecord, new Date())),
    );
  });
});
