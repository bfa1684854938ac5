import { Firestore, type WriteBatch } from "@google-cloud/firestore";
import { costRollupPath } from "@usage-ingestion/cost-worker/rollups";
import { dayOf } from "@usage-ingestion/shared";
import { afterAll, describe, expect, it } from "vitest";
import { handleMessage } from "../../services/cost-worker/src/handler.ts";
import { validTransaction } from "../setup/fixtures.ts";
import { uniqueId } from "../setup/harness.ts";
import { messageIdInShard } from "../setup/rollups.ts";
import { envelope, pushEvent, workerDeps } from "../setup/worker.ts";

const clients: Firestore[] = [];
afterAll(() => Promise.all(clients.map((client) => client.terminate())));

/**
 * A client of its own on the emulator, with each batch's `update`d paths noted: the test is about which
 * write a cell gets.
 */
function notingUpdates(): { db: Firestore; updated: string[] } {
  const db = new Firestore({ projectId: process.env.GOOGLE_CLOUD_PROJECT });
  clients.push(db);
  const updated: string[] = [];
  const batchOf = db.batch.bind(db);
  db.batch = () => {
    const batch = batchOf();
    const update = batch.update.bind(batch) as (...args: unknown[]) => WriteBatch;
    batch.update = ((...args: unknown[]) => {
      updated.push((args[0] as { path: string }).path);
      return update(...args);
    }) as WriteBatch["update"];
    return batch;
  };
  return { db, updated };
}

// gpt-4o, 1,200 input and 300 output tokens at $2.50 and $10 per million: 0.003 + 0.003 = 0.006 USD.
const COST_NANOS = 6_000_000;

describe("roll-up cells the worker has written before", () => {
  const setup = () => {
    const org = uniqueId("cells-org");
    const { db, updated } = notingUpdates();
    const deps = workerDeps(db);
    const message = () => envelope(org, validTransaction());
    const first = messageIdInShard(3);
    const cell = db.doc(
      costRollupPath(
        org,
        {
          day: dayOf(message().received_at),
          provider: "openai",
          model: "gpt-4o",
          model_tier: null,
          billable_customer_id: "cust-42",
          dimensions: {},
        },
        3,
      ),
    );
    return { org, db, updated, deps, message, first, cell };
  };

  it("take the next records' increments as an update, and add up as whole merges do", async () => {
    const { updated, deps, message, first, cell } = setup();
    for (const id of [first, messageIdInShard(3), messageIdInShard(3)])
      expect(await handleMessage(deps, pushEvent(message(), id))).toBe("priced");

    expect(updated).toEqual([cell.path, cell.path]);
    const data = (await cell.get()).data();
    expect(data).toMatchObject({
      provider: "openai",
      model: "gpt-4o",
      model_tier: null,
      billable_customer_id: "cust-42",
      shard: 3,
      transactions: 3,
      unpriced_transactions: 0,
      conflict_transactions: 0,
      cost_nanos: 3 * COST_NANOS,
    });
    expect(data?.quantities).toMatchObject({ input_tokens: 3_600, output_tokens: 900, cached_tokens: 0 });
  });

  it("recreate a cell deleted since, key and all, and store the record", async () => {
    const { deps, message, first, cell } = setup();
    expect(await handleMessage(deps, pushEvent(message(), first))).toBe("priced");
    await cell.delete();
    expect(await handleMessage(deps, pushEvent(message(), messageIdInShard(3)))).toBe("priced");

    expect((await cell.get()).data()).toMatchObject({
      provider: "openai",
      billable_customer_id: "cust-42",
      transactions: 1,
      unpriced_transactions: 0,
      cost_nanos: COST_NANOS,
    });
  });

  it("add nothing for a redelivery", async () => {
    const { deps, message, first, cell } = setup();
    const sent = message();
    expect(await handleMessage(deps, pushEvent(sent, first))).toBe("priced");
    expect(await handleMessage(deps, pushEvent(sent, first))).toBe("redelivered");

    expect((await cell.get()).data()).toMatchObject({ transactions: 1, cost_nanos: COST_NANOS });
  });
});
