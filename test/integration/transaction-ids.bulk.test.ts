import { handleMessage } from "@usage-ingestion/records";
import { describe, expect, it } from "vitest";
import { bulk, validTransaction } from "../setup/fixtures.ts";
import { startTestGateway } from "../setup/gateway.ts";
import { pullableTopic, seedOrganization } from "../setup/harness.ts";
import { recordTotals, rollupTotals } from "../setup/rollups.ts";
import { pushEvent, workerDeps } from "../setup/worker.ts";

// gpt-4o at $2.50 in / $10 out per million (https://openai.com/api/pricing/): 1200 x 2.5 + 300 x 10 per
// million = 0.006 USD = 6,000,000 nanos per transaction of the fixture.
const EACH = 6_000_000n;

describe("a thousand-transaction bulk sent three times", () => {
  it("is billed exactly once: gateway -> Pub/Sub -> worker, every message delivered concurrently", async () => {
    const org = await seedOrganization();
    const topic = await pullableTopic();
    const gateway = await startTestGateway({ topicName: topic.topicName });
    const body = bulk(...Array.from({ length: 1000 }, (_, i) => validTransaction({ transaction_id: `evt-${i}` })));
    try {
      for (let send = 0; send < 3; send++) {
        expect((await gateway.post(body, { "X-Api-Key": org.apiKey })).status).toBe(202);
      }
    } finally {
      await gateway.close();
    }
    const messages = await topic.pull(3000, 60_000);
    expect(messages).toHaveLength(3000);

    // The worker's handler as the push endpoint runs it, with its deployed settings cache, many deliveries
    // at a time, in arrival order.
    const deps = workerDeps(undefined, 10_000, 10_000);
    let next = 0;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (next < messages.length) {
          const message = messages[next++];
          if (message) await handleMessage(deps, pushEvent(message.data, message.id));
        }
      }),
    );
    const totals = await recordTotals(org.organizationId);
    expect(totals.byStatus).toEqual({ priced: 1000, duplicate: 2000 });
    expect(totals.billedNanos).toBe(1000n * EACH);
    expect(await rollupTotals(org.organizationId)).toMatchObject({ transactions: 1000, costNanos: 1000n * EACH });
  }, 420_000);
});
