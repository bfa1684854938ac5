import { randomUUID } from "node:crypto";
import { repricedRollupWrites } from "@usage-ingestion/records";
import { mergeData, quantitiesOf, recordRollupWrites, shardOf } from "@usage-ingestion/reports";
import type { CostRecord, UsageEntry } from "@usage-ingestion/shared";
import { describe, expect, it } from "vitest";
import { firestore, uniqueId } from "../setup/harness.ts";
import { messageIdInShard } from "../setup/rollups.ts";

const usage: UsageEntry[] = [{ type: "tokens", metrics: { input_tokens: 100, output_tokens: 20, total_tokens: 120 } }];

const record = (organizationId: string, messageId: string, status: CostRecord["status"]): CostRecord => ({
  message_id: messageId,
  request_id: randomUUID(),
  transaction_index: 0,
  organization_id: organizationId,
  received_at: "2026-03-01T08:00:00.000Z",
  processed_at: "2026-03-01T08:00:00.000Z",
  provider: "openai",
  model: "gpt-4o",
  model_tier: null,
  context: { billable_customer_id: "acme" },
  usage,
  provider_usage_raw: null,
  transaction_id: null,
  duplicate_of: status === "conflict" ? "an-earlier-message" : null,
  status,
  unpriced_reason: null,
  cost_usd: null,
  cost_nanos: status === "priced" ? 1_000 : null,
  line_items: [],
  pricing: { source: null, version: null, model: null },
  currency: "USD",
  queue_schema_version: 1,
  dimensions: {},
});

type Db = ReturnType<typeof firestore>;

/** Commits writes in one batch, as the worker commits a record's. */
async function commit(db: Db, writes: ReturnType<typeof recordRollupWrites>): Promise<void> {
  const batch = db.batch();
  for (const write of writes) batch.set(write.ref, mergeData(write), { merge: true });
  await batch.commit();
}

/** The roll-up cell a record's writes add to. */
async function cellOf(db: Db, written: CostRecord) {
  const [cellWrite] = recordRollupWrites(db, written, quantitiesOf(usage));
  return (await (cellWrite?.ref ?? db.doc("missing/cell")).get()).data();
}

describe("roll-up writes on the Firestore emulator", () => {
  it("keeps a cell's quantities when a conflict lands in the same shard after billed records", async () => {
    const db = firestore();
    const org = uniqueId("rollup-org");
    const first = record(org, randomUUID(), "priced");
    const shard = shardOf(first.message_id);
    const second = record(org, messageIdInShard(shard), "priced");
    const conflict = record(org, messageIdInShard(shard), "conflict");
    // One commit per record, as the worker writes them.
    for (const written of [first, second, conflict])
      await commit(db, recordRollupWrites(db, written, quantitiesOf(usage)));
    const cell = await cellOf(db, first);
    expect(cell).toMatchObject({ transactions: 2, conflict_transactions: 1, cost_nanos: 2_000 });
    expect(cell?.quantities).toMatchObject({ input_tokens: 200, output_tokens: 40 });
  });

  it("keeps a cell's quantities when a re-priced record moves its cost", async () => {
    const db = firestore();
    const org = uniqueId("rollup-org");
    const unpriced = { ...record(org, randomUUID(), "unpriced"), unpriced_reason: "unknown_model" };
    await commit(db, recordRollupWrites(db, unpriced, quantitiesOf(usage)));
    await commit(db, repricedRollupWrites(db, unpriced, { ...unpriced, status: "priced", cost_nanos: 5_000 }));
    const cell = await cellOf(db, unpriced);
    expect(cell).toMatchObject({ transactions: 1, unpriced_transactions: 0, cost_nanos: 5_000 });
    expect(cell?.quantities).toMatchObject({ input_tokens: 100, output_tokens: 20 });
  });

  it("adds the vendor's own cost beside ours for a priced record, and once re-pricing prices one (decision 0031)", async () => {
    const db = firestore();
    const org = uniqueId("rollup-org");
    const reported = { provider_reported_cost: "0.000001200000", provider_reported_cost_picos: 1_200_000 };
    const priced = { ...record(org, randomUUID(), "priced"), ...reported };
    const plain = record(org, messageIdInShard(shardOf(priced.message_id)), "priced");
    const unpriced = {
      ...record(org, messageIdInShard(shardOf(priced.message_id)), "unpriced"),
      unpriced_reason: "unknown_model",
      provider_reported_cost: "0.000000500000",
      provider_reported_cost_picos: 500_000,
    };
    for (const written of [priced, plain, unpriced])
      await commit(db, recordRollupWrites(db, written, quantitiesOf(usage)));
    // Ours: 1,000 nanos each priced record; the vendor's 1,200,000 picos (1,200 nanos) for the one that has it.
    expect(await cellOf(db, priced)).toMatchObject({
      transactions: 3,
      cost_nanos: 2_000,
      provider_reported_transactions: 1,
      provider_reported_cost_picos: 1_200_000,
      cost_nanos_where_provider_reported: 1_000,
    });
    await commit(db, repricedRollupWrites(db, unpriced, { ...unpriced, status: "priced", cost_nanos: 400 }));
    expect(await cellOf(db, priced)).toMatchObject({
      cost_nanos: 2_400,
      provider_reported_transactions: 2,
      provider_reported_cost_picos: 1_700_000,
      cost_nanos_where_provider_reported: 1_400,
    });
  });
});
