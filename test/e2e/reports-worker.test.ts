import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setDimensions } from "@usage-ingestion/organizations";
import { handleMessage } from "@usage-ingestion/records";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdmin } from "../../scripts/admin/main.ts";
import { validTransaction } from "../setup/fixtures.ts";
import { startTestGateway } from "../setup/gateway.ts";
import { firestore, pullableTopic, seedOrganization } from "../setup/harness.ts";
import { envelope, pushEvent, workerDeps } from "../setup/worker.ts";

// gpt-4o at $2.50 in / $10 out per million tokens (https://openai.com/api/pricing/, read 2026-11-22):
// the fixture's 1,200 input and 300 output tokens cost 0.003 + 0.003 = 0.006 USD = 6,000,000 nanos.
const GPT_4O_FIXTURE_NANOS = 6_000_000;

let org: Awaited<ReturnType<typeof seedOrganization>>;
let gateway: Awaited<ReturnType<typeof startTestGateway>>;

/** Records written by the real worker handler: the reports read exactly what it writes. */
beforeAll(async () => {
  org = await seedOrganization();
  await setDimensions(firestore(), org.organizationId, ["feature"]);
  const deps = workerDeps();
  const push = (transaction: Record<string, unknown>, messageId?: string) =>
    handleMessage(deps, pushEvent(envelope(org.organizationId, transaction), messageId));
  const chat = validTransaction({
    transaction_id: "chatcmpl-1",
    context: { billable_customer_id: "acme", feature: "chat" },
  });
  await push(chat, "m-chat");
  await push(chat, "m-chat"); // redelivery of the same message
  await push(chat, "m-chat-retried"); // the client sent it again: a duplicate
  await push({ ...chat, model: "gpt-4o-mini" }, "m-conflict"); // same id, other content: a conflict
  await push(validTransaction({ context: { billable_customer_id: "globex", feature: "search" } }), "m-search");
  await push(validTransaction({ model: "mystery-model-9" }), "m-unpriced");
  gateway = await startTestGateway({ topicName: (await pullableTopic()).topicName });
});
afterAll(() => gateway?.close());

const costs = async (query: string) => {
  const response = await fetch(`${gateway.baseUrl}/usage/costs?${query}`, { headers: { "x-api-key": org.readKey } });
  expect(response.status).toBe(200);
  return response.json();
};

describe("reports on what the worker wrote", () => {
  it("bill each transaction once under redelivery and duplicates, and list the conflict", async () => {
    // The envelope's receive time is 2025-11-01T12:00:00Z: one whole day from roll-ups, then two hours from records.
    for (const range of ["from=2025-11-01&to=2025-11-02", "from=2025-11-01T11:00:00Z&to=2025-11-01T13:00:00Z"]) {
      const body = await costs(`${range}&group_by=context.feature`);
      expect(body.totals).toMatchObject({
        cost_nanos: String(2 * GPT_4O_FIXTURE_NANOS),
        cost_usd: "0.012000000",
        transactions: 3,
        unpriced_transactions: 1,
        conflict_transactions: 1,
      });
      expect(body.totals.quantities).toMatchObject({ input_tokens: 3600, output_tokens: 900 });
      const byFeature = Object.fromEntries(
        body.groups.map((g: { key: Record<string, string>; cost_nanos: string }) => [
          g.key["context.feature"],
          g.cost_nanos,
        ]),
      );
      expect(byFeature).toEqual({ chat: "6000000", search: "6000000", null: "0" });
    }
  });

  it("list the unpriced model with its reason", async () => {
    const response = await fetch(`${gateway.baseUrl}/usage/unpriced?from=2025-11-01&to=2025-11-02`, {
      headers: { "x-api-key": org.readKey },
    });
    const body = await response.json();
    expect(body.unpriced).toEqual([
      expect.objectContaining({ provider: "openai", model: "mystery-model-9", transactions: 1 }),
    ]);
  });

  it("move the repriced transaction from unpriced to priced, exactly", async () => {
    // Our own price for the unknown model: $1 in / $2 out per million tokens, so the fixture's 1,200 input
    // and 300 output tokens cost 0.0012 + 0.0006 = 0.0018 USD = 1,800,000 nanos.
    const file = join(mkdtempSync(join(tmpdir(), "prices-")), "prices.json");
    const price = { provider: "openai", model: "mystery-model-9", effective_from: "2025-01-01T00:00:00Z" };
    writeFileSync(file, JSON.stringify({ prices: [{ ...price, input_mtok: "1", output_mtok: "2" }] }));
    await runAdmin(["pricing", "set", org.organizationId, file], firestore(), () => {});
    await runAdmin(["reprice", org.organizationId], firestore(), () => {});
    for (const range of ["from=2025-11-01&to=2025-11-02", "from=2025-11-01T11:00:00Z&to=2025-11-01T13:00:00Z"]) {
      const body = await costs(range);
      expect(body.totals).toMatchObject({
        cost_nanos: String(2 * GPT_4O_FIXTURE_NANOS + 1_800_000),
        transactions: 3,
        unpriced_transactions: 0,
        conflict_transactions: 1,
      });
    }
    const unpriced = await fetch(`${gateway.baseUrl}/usage/unpriced?from=2025-11-01&to=2025-11-02`, {
      headers: { "x-api-key": org.readKey },
    });
    expect((await unpriced.json()).unpriced).toEqual([]);
  });
});
