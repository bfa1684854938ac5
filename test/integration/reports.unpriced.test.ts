import { DOCUMENT_PATHS } from "@usage-ingestion/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reportsFirestore } from "../setup/harness.ts";
import { reportFixture } from "../setup/reports.ts";

const unpriced = { status: "unpriced" as const };
let fixture: Awaited<ReturnType<typeof reportFixture>>;
beforeAll(async () => {
  fixture = await reportFixture(
    [],
    [
      { ...unpriced, received_at: "2026-04-01T01:00:00.000Z", model: "mystery-1", unpriced_reason: "unknown_model" },
      { ...unpriced, received_at: "2026-04-01T02:00:00.000Z", model: "mystery-1", unpriced_reason: "unknown_model" },
      { ...unpriced, received_at: "2026-04-02T03:00:00.000Z", model: "mystery-1", unpriced_reason: "unknown_model" },
      { ...unpriced, received_at: "2026-04-01T04:00:00.000Z", model: "gpt-4o", unpriced_reason: "no_rate:images" },
      { received_at: "2026-04-01T05:00:00.000Z", model: "gpt-4o" },
    ],
  );
});
afterAll(() => fixture.gateway.close());

describe("GET /usage/unpriced", () => {
  it("lists models and reasons with counts, from roll-ups and edge records alike", async () => {
    const response = await fixture.get("/usage/unpriced?from=2026-04-01&to=2026-04-02T12:00:00Z");
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.unpriced).toEqual([
      { provider: "openai", model: "mystery-1", model_tier: null, reason: "unknown_model", transactions: 3 },
      { provider: "openai", model: "gpt-4o", model_tier: null, reason: "no_rate:images", transactions: 1 },
    ]);
    expect(body.total_transactions).toBe(4);
  });
});

describe("sums past 2^53 nano-USD", () => {
  it("stay exact", async () => {
    // Two shards of one cell, each holding 2^53 + 1 nanos: a float sum would lose the last digits.
    const big = 2n ** 53n + 1n;
    const cell = { day: "2026-05-01", provider: "openai", model: "gpt-4o", model_tier: null };
    for (const shard of [0, 1]) {
      await reportsFirestore()
        .doc(`${DOCUMENT_PATHS.costRollups(fixture.organizationId)}/2026-05-01_big_${shard}`)
        .set({
          ...cell,
          billable_customer_id: "whale",
          dimensions: {},
          shard,
          transactions: 1,
          unpriced_transactions: 0,
          conflict_transactions: 0,
          cost_nanos: big,
          quantities: {},
        });
    }
    const body = await (await fixture.get("/usage/costs?from=2026-05-01&to=2026-05-02")).json();
    expect(body.totals.cost_nanos).toBe("18014398509481986");
    expect(body.totals.cost_usd).toBe("18014398.509481986");
  });
});
