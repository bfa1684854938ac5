import { handleMessage } from "@usage-ingestion/records";
import { costRollupPath, dayOf } from "@usage-ingestion/reports";
import type { Commits } from "@usage-ingestion/shared/server";
import { describe, expect, it } from "vitest";
import { validTransaction } from "../setup/fixtures.ts";
import { firestore, uniqueId } from "../setup/harness.ts";
import { messageIdInShard } from "../setup/rollups.ts";
import { emulatorCommits, envelope, pushEvent, workerDeps } from "../setup/worker.ts";

/**
 * The worker's commits to the emulator, with the paths each commit only `increment`s noted: the test is
 * about which write a cell gets.
 */
function notingIncrements(): { commits: Commits; incremented: string[] } {
  const commits = emulatorCommits();
  const incremented: string[] = [];
  return {
    commits: {
      commit(writes) {
        for (const write of writes) if (write.kind === "increment") incremented.push(write.path);
        return commits.commit(writes);
      },
      close: () => commits.close(),
    },
    incremented,
  };
}

// gpt-4o, 1,200 input and 300 output tokens at $2.50 and $10 per million: 0.003 + 0.003 = 0.006 USD.
const COST_NANOS = 6_000_000;

describe("roll-up cells the worker has written before", () => {
  const setup = () => {
    const org = uniqueId("cells-org");
    const db = firestore();
    const { commits, incremented } = notingIncrements();
    const deps = workerDeps(db, 10_000, 0, commits);
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
    return { org, db, incremented, deps, message, first, cell };
  };

  it("take the next records' counters as increments only, and add up as whole merges do", async () => {
    const { incremented, deps, message, first, cell } = setup();
    for (const id of [first, messageIdInShard(3), messageIdInShard(3)])
      expect(await handleMessage(deps, pushEvent(message(), id))).toBe("priced");

    expect(incremented).toEqual([cell.path, cell.path]);
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
