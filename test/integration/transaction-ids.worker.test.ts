import { handleMessage } from "@usage-ingestion/records";
import { DOCUMENT_PATHS } from "@usage-ingestion/shared";
import { describe, expect, it } from "vitest";
import { validTransaction } from "../setup/fixtures.ts";
import { firestore, uniqueId } from "../setup/harness.ts";
import { recordTotals, rollupTotals } from "../setup/rollups.ts";
import { envelope, pushEvent, workerDeps } from "../setup/worker.ts";

// gpt-4o at $2.50 in / $10 out per million (https://openai.com/api/pricing/): 1200 x 2.5 + 300 x 10
// = 3000 + 3000 micro-USD = 0.006 USD = 6,000,000 nanos.
const GPT_4O_NANOS = 6_000_000n;

const record = async (org: string, messageId: string) =>
  (await firestore().doc(DOCUMENT_PATHS.transaction(org, messageId)).get()).data();

describe("client transaction ids in the worker", () => {
  it("bills the first message of an id and stores a later one as duplicate of it", async () => {
    const org = uniqueId("org");
    const deps = workerDeps();
    const transaction = validTransaction({ transaction_id: "chatcmpl-abc" });
    const first = pushEvent(envelope(org, transaction));
    const retry = pushEvent(envelope(org, transaction));
    expect(await handleMessage(deps, first)).toBe("priced");
    expect(await handleMessage(deps, retry)).toBe("duplicate");
    expect(await record(org, retry.id as string)).toMatchObject({
      status: "duplicate",
      duplicate_of: first.id,
      transaction_id: "chatcmpl-abc",
      cost_nanos: null,
    });
    expect(await recordTotals(org)).toMatchObject({ count: 2, billedNanos: GPT_4O_NANOS });
    expect(await rollupTotals(org)).toEqual({ transactions: 1, unpriced: 0, conflicts: 0, costNanos: GPT_4O_NANOS });
  });

  it("stores different content under a billed id as a conflict, never billed", async () => {
    const org = uniqueId("org");
    const deps = workerDeps();
    const first = pushEvent(envelope(org, validTransaction({ transaction_id: "resp_1" })));
    const other = pushEvent(envelope(org, validTransaction({ transaction_id: "resp_1", model: "gpt-4o-mini" })));
    expect(await handleMessage(deps, first)).toBe("priced");
    expect(await handleMessage(deps, other)).toBe("conflict");
    expect(await record(org, other.id as string)).toMatchObject({ status: "conflict", duplicate_of: first.id });
    expect(await rollupTotals(org)).toEqual({ transactions: 1, unpriced: 0, conflicts: 1, costNanos: GPT_4O_NANOS });
  });

  it("bills one of many concurrent deliveries of one id", async () => {
    const org = uniqueId("org");
    const deps = workerDeps();
    const transaction = validTransaction({ transaction_id: "msg_concurrent" });
    const events = Array.from({ length: 8 }, (_, i) => pushEvent(envelope(org, transaction, i)));
    const outcomes = await Promise.all(events.map((event) => handleMessage(deps, event)));
    expect(outcomes.filter((outcome) => outcome === "priced")).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === "duplicate")).toHaveLength(7);
    expect(await rollupTotals(org)).toMatchObject({ transactions: 1, costNanos: GPT_4O_NANOS });
  });

  it("acknowledges a redelivered duplicate without a second record", async () => {
    const org = uniqueId("org");
    const deps = workerDeps();
    const transaction = validTransaction({ transaction_id: "dup-redelivered" });
    const first = pushEvent(envelope(org, transaction));
    const retry = pushEvent(envelope(org, transaction));
    await handleMessage(deps, first);
    expect(await handleMessage(deps, retry)).toBe("duplicate");
    expect(await handleMessage(deps, retry)).toBe("redelivered");
    expect(await handleMessage(deps, first)).toBe("redelivered");
    expect((await recordTotals(org)).count).toBe(2);
    expect(await rollupTotals(org)).toMatchObject({ transactions: 1, costNanos: GPT_4O_NANOS });
  });

  it("keeps ids apart per organization, and bills repeats without an id as before", async () => {
    const [orgA, orgB] = [uniqueId("org"), uniqueId("org")];
    const deps = workerDeps();
    const withId = validTransaction({ transaction_id: "shared-id" });
    expect(await handleMessage(deps, pushEvent(envelope(orgA, withId)))).toBe("priced");
    expect(await handleMessage(deps, pushEvent(envelope(orgB, withId)))).toBe("priced");
    expect(await handleMessage(deps, pushEvent(envelope(orgA, validTransaction())))).toBe("priced");
    expect(await handleMessage(deps, pushEvent(envelope(orgA, validTransaction())))).toBe("priced");
    expect(await rollupTotals(orgA)).toMatchObject({ transactions: 3, costNanos: 3n * GPT_4O_NANOS });
    expect(await rollupTotals(orgB)).toMatchObject({ transactions: 1, costNanos: GPT_4O_NANOS });
  });
});
