import { handleMessage } from "@usage-ingestion/records";
import {
  costRollupPath,
  foldDay,
  partColumns,
  ROLLUP_SHARDS,
  SUMMARY_PATHS,
  summaryCells,
  zeroQuantities,
} from "@usage-ingestion/reports";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validTransaction } from "../setup/fixtures.ts";
import { startTestGateway } from "../setup/gateway.ts";
import { firestore, pullableTopic, seedOrganization } from "../setup/harness.ts";
import { envelope, pushEvent, workerDeps } from "../setup/worker.ts";

/**
 * The vendor's own cost through the worker into the reports and the records views, beside ours and never
 * in it (decision 0031). Our costs from the vendors' price pages:
 * - gpt-4o: $2.50 input and $10.00 output per 1M tokens (https://openai.com/api/pricing/, as the worker's
 *   other tests read it): 1000 input + 500 output = 0.0025 + 0.005 = 0.0075 USD.
 * - grok-4.7: $2.00 input and $6.00 output per 1M tokens (https://docs.x.ai/developers/pricing, read
 *   2026-11-26): 1000 input + 500 output = 0.002 + 0.003 = 0.005 USD.
 * xAI's 37,756,000 ticks are 0.0037756 USD (1 USD = 10^10 ticks, https://docs.x.ai/developers/cost-tracking,
 * read 2026-11-29).
 */
const DAY = "2026-11-01";
const usage = [{ type: "tokens", metrics: { input_tokens: 1000, output_tokens: 500, total_tokens: 1500 } }];
const customer = { billable_customer_id: "acme" };
const sent = {
  /** 0.0075 ours, 0.0075123 the vendor's. */
  openaiReported: validTransaction({ usage, context: customer, provider_cost: "0.0075123" }),
  /** 0.005 ours, 0.0037756 the vendor's (its raw usage's ticks). */
  xaiReported: validTransaction({
    provider: "xai",
    model: "grok-4.7",
    usage,
    context: customer,
    provider_usage_raw: { prompt_tokens: 1000, completion_tokens: 500, cost_in_usd_ticks: 37_756_000 },
  }),
  /** 0.0075 ours, none of the vendor's. */
  openaiPlain: validTransaction({ usage, context: customer }),
  /** Unpriced: its vendor figure stays on the record, out of the like-with-like sums. */
  unpricedReported: validTransaction({ model: "mystery-model", usage, context: customer, provider_cost: "0.5" }),
};

let org: Awaited<ReturnType<typeof seedOrganization>>;
let gateway: Awaited<ReturnType<typeof startTestGateway>>;
const ids: Record<string, string> = {};

beforeAll(async () => {
  org = await seedOrganization();
  for (const [name, transaction] of Object.entries(sent)) {
    const event = pushEvent({ ...envelope(org.organizationId, transaction), received_at: `${DAY}T12:00:00.000Z` });
    await handleMessage(workerDeps(), event);
    ids[name] = event.id as string;
  }
  // A cell as it was written before the vendor's figures existed: gpt-4o, 2 records, 0.001 USD, none of them.
  const key = { day: DAY, provider: "openai" as const, model: "gpt-4o", model_tier: null, ...customer, dimensions: {} };
  await firestore()
    .doc(costRollupPath(org.organizationId, key, ROLLUP_SHARDS - 1))
    .set({
      ...key,
      shard: ROLLUP_SHARDS - 1,
      transactions: 2,
      unpriced_transactions: 0,
      conflict_transactions: 0,
      cost_nanos: 1_000_000,
      quantities: zeroQuantities(),
    });
  gateway = await startTestGateway({ topicName: (await pullableTopic()).topicName });
});
afterAll(() => gateway.close());

const get = async (path: string) => {
  const response = await fetch(`${gateway.baseUrl}${path}`, { headers: { "x-api-key": org.readKey } });
  const body = await response.json();
  expect(response.status, JSON.stringify(body)).toBe(200);
  return body;
};

describe("the vendor's own cost in GET /usage/costs", () => {
  it("sums it per group beside cost_usd, with our cost of the same records and the difference", async () => {
    const report = await get(`/usage/costs?from=${DAY}&to=2026-11-02&group_by=provider`);
    const byProvider = Object.fromEntries(
      report.groups.map((group: Record<string, unknown> & { key: { provider: string } }) => [
        group.key.provider,
        group,
      ]),
    );
    // openai: 0.0075 + 0.0075 + the old cell's 0.001 = 0.016 ours over 5 records (the unpriced one included);
    // the vendor's 0.0075123 against our 0.0075 for the one record that has both.
    expect(byProvider.openai).toMatchObject({
      cost_usd: "0.016000000",
      transactions: 5,
      unpriced_transactions: 1,
      provider_reported_transactions: 1,
      provider_reported_cost_usd: "0.007512300000",
      cost_usd_where_provider_reported: "0.007500000",
      provider_reported_difference_usd: "0.000012300000",
    });
    expect(byProvider.xai).toMatchObject({
      cost_usd: "0.005000000",
      transactions: 1,
      provider_reported_transactions: 1,
      provider_reported_cost_usd: "0.003775600000",
      provider_reported_cost_picos: "3775600000",
      cost_usd_where_provider_reported: "0.005000000",
      provider_reported_difference_usd: "-0.001224400000",
    });
    // 0.0075123 + 0.0037756 = 0.0112879 against 0.0075 + 0.005 = 0.0125.
    expect(report.totals).toMatchObject({
      cost_usd: "0.021000000",
      provider_reported_transactions: 2,
      provider_reported_cost_usd: "0.011287900000",
      cost_usd_where_provider_reported: "0.012500000",
      cost_nanos_where_provider_reported: "12500000",
      provider_reported_difference_usd: "-0.001212100000",
    });
  });

  it("reads the same figures from the records for a part of the day", async () => {
    const report = await get("/usage/costs?from=2026-11-01T12:00:00Z&to=2026-11-01T13:00:00Z&group_by=provider");
    const openai = report.groups.find((group: { key: { provider: string } }) => group.key.provider === "openai");
    // The three records of 12:00 (0.0075 + 0.0075 + unpriced), without the day's older cell.
    expect(openai).toMatchObject({
      cost_usd: "0.015000000",
      transactions: 3,
      provider_reported_transactions: 1,
      provider_reported_cost_usd: "0.007512300000",
      cost_usd_where_provider_reported: "0.007500000",
    });
    expect(report.totals).toMatchObject({
      provider_reported_transactions: 2,
      provider_reported_cost_usd: "0.011287900000",
      cost_usd_where_provider_reported: "0.012500000",
    });
  });

  it("folds the figures into the day's summary", async () => {
    await foldDay(firestore(), org.organizationId, DAY);
    const parts = await firestore()
      .collection(SUMMARY_PATHS.costSummaries(org.organizationId))
      .where("day", "==", DAY)
      .get();
    const cells = parts.docs.flatMap((part) => summaryCells(part.data() as never, partColumns(part.data() as never)));
    const gpt = cells.find((cell) => cell.model === "gpt-4o");
    expect(gpt).toMatchObject({
      transactions: 4,
      cost_nanos: 16_000_000n,
      provider_reported_transactions: 1,
      provider_reported_cost_picos: 7_512_300_000n,
      cost_nanos_where_provider_reported: 7_500_000n,
    });
    expect(cells.find((cell) => cell.model === "mystery-model")).not.toHaveProperty("provider_reported_transactions");
  });
});

describe("the vendor's own cost in the records views", () => {
  it("lists it on each record that has one, null on the others", async () => {
    const { records } = await get(`/usage/records?from=${DAY}&to=2026-11-02`);
    const byId = Object.fromEntries(
      records.map((record: { message_id: string; provider_reported_cost: string | null }) => [
        record.message_id,
        record.provider_reported_cost,
      ]),
    );
    expect(byId).toEqual({
      [ids.openaiReported as string]: "0.007512300000",
      [ids.xaiReported as string]: "0.003775600000",
      [ids.openaiPlain as string]: null,
      [ids.unpricedReported as string]: "0.500000000000",
    });
    const one = await get(`/usage/records/${ids.xaiReported}`);
    expect(one).toMatchObject({ cost_usd: "0.005000000", provider_reported_cost: "0.003775600000" });
  });
});
