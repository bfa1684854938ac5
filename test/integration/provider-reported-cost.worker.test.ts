import { handleMessage } from "@usage-ingestion/records";
import { DOCUMENT_PATHS } from "@usage-ingestion/shared";
import { describe, expect, it } from "vitest";
import { validTransaction } from "../setup/fixtures.ts";
import { firestore, uniqueId } from "../setup/harness.ts";
import { envelope, pushEvent, workerDeps } from "../setup/worker.ts";

/**
 * The vendor's own figure for a call, through the worker into the record (decision 0031). Our costs are
 * worked from the vendors' price pages:
 * - gpt-4o: $2.50 input and $10.00 output per 1M tokens (https://openai.com/api/pricing/, as the worker's
 *   other tests read it): 1000 input + 500 output = 0.0025 + 0.005 = 0.0075 USD.
 * - grok-4.7: $2.00 input and $6.00 output per 1M tokens (https://docs.x.ai/developers/pricing, read
 *   2026-11-26): 1000 input + 500 output = 0.002 + 0.003 = 0.005 USD.
 * xAI's ticks: 1 USD = 10^10 ticks (https://docs.x.ai/developers/cost-tracking, read 2026-11-29), so
 * 37,756,000 ticks (that page's own example) are 0.0037756 USD.
 */
const usage = [{ type: "tokens", metrics: { input_tokens: 1000, output_tokens: 500, total_tokens: 1500 } }];
const xaiUsage = { prompt_tokens: 1000, completion_tokens: 500, total_tokens: 1500, cost_in_usd_ticks: 37_756_000 };

async function stored(org: string, transaction: Record<string, unknown>, receivedAt = "2026-11-01T12:00:00.000Z") {
  const event = pushEvent({ ...envelope(org, transaction), received_at: receivedAt });
  expect(await handleMessage(workerDeps(), event)).toBe("priced");
  return (
    await firestore()
      .doc(DOCUMENT_PATHS.transaction(org, event.id as string))
      .get()
  ).data();
}

describe("the vendor's own cost on the record", () => {
  it("keeps a client's provider_cost beside our cost, exactly", async () => {
    const record = await stored(uniqueId("org"), validTransaction({ usage, provider_cost: "0.0075123" }));
    expect(record).toMatchObject({
      cost_usd: "0.007500000",
      cost_nanos: 7_500_000,
      provider_reported_cost: "0.007512300000",
      provider_reported_cost_picos: 7_512_300_000,
    });
  });

  it("reads xAI's cost_in_usd_ticks from the raw usage, and lets an explicit provider_cost win", async () => {
    const org = uniqueId("org");
    const xai = { provider: "xai", model: "grok-4.7", usage, provider_usage_raw: xaiUsage };
    expect(await stored(org, validTransaction(xai))).toMatchObject({
      cost_usd: "0.005000000",
      provider_reported_cost: "0.003775600000",
      provider_reported_cost_picos: 3_775_600_000,
    });
    expect(await stored(org, validTransaction({ ...xai, provider_cost: 0.004 }))).toMatchObject({
      provider_reported_cost: "0.004000000000",
    });
  });

  it("stores nothing of it when the call carried none", async () => {
    const record = await stored(uniqueId("org"), validTransaction({ usage }));
    expect(record?.cost_usd).toBe("0.007500000");
    expect(record).not.toHaveProperty("provider_reported_cost");
    expect(record).not.toHaveProperty("provider_reported_cost_picos");
  });
});
