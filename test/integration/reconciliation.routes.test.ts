import { createApiKey } from "@usage-ingestion/organizations";
import { compareFigures, DAY_MS, putConnection, reconciliationRow, replaceRows } from "@usage-ingestion/reconciliation";
import { beforeAll, describe, expect, it } from "vitest";
import { gatewayOnEmulators } from "../setup/gateway.ts";
import { databases, firestore } from "../setup/harness.ts";
import { managementCalls } from "../setup/management.ts";

const setup = gatewayOnEmulators();
let adminKey: string;
const { call, orgPath } = managementCalls(setup, () => adminKey);
const CREDENTIAL = "sk-admin-Rec0nciliationRoutesTestKeyOnly";
const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
const day = (n: number) => new Date(today - n * DAY_MS).toISOString().slice(0, 10);
const tokens = (input: number, output: number) => ({
  input_tokens: input,
  output_tokens: output,
  cached_tokens: 0,
  cache_creation_input_tokens: 0,
});
const read = (query: string, key = setup.org.readKey) =>
  fetch(`${setup.gateway.baseUrl}/usage/reconciliation${query}`, { headers: { "x-api-key": key } });

beforeAll(async () => {
  adminKey = (await createApiKey(databases(), setup.org.organizationId, undefined, undefined, "admin")).key;
  // Rows as a run stores them: one matched day of gpt-4o-mini and one the vendor billed alone.
  const comparisons = compareFigures(
    [
      {
        day: day(2),
        model: "gpt-4o-mini",
        tokens: tokens(1000, 100),
        cost_nanos: 195_000_000n,
        transactions: 3,
        unpriced_transactions: 0,
      },
    ],
    [
      {
        day: day(2),
        model: "gpt-4o-mini-2024-07-18",
        tokens: tokens(1000, 100),
        cost_nanos: 195_000_000n,
        components: {},
      },
      { day: day(1), model: "o3-2025-04-16", tokens: tokens(500, 50), cost_nanos: 1_400_000n, components: {} },
    ],
  );
  const rows = comparisons.map((comparison) => reconciliationRow("openai", comparison, null, "run_test", new Date()));
  await replaceRows(
    firestore(),
    setup.org.organizationId,
    "openai",
    { from: new Date(today - 3 * DAY_MS), to: new Date(today) },
    rows,
  );
});

describe("GET /usage/reconciliation", () => {
  it("answers the rows of the range with a read key, filtered by vendor and model", async () => {
    const all = await read(`?from=${day(7)}&to=${day(-1)}`);
    expect(all.status).toBe(200);
    const body = await all.json();
    expect(body.classes).toEqual({ matched: 1, vendor_only: 1, ours_only: 0, count_mismatch: 0, price_mismatch: 0 });
    expect(body.rows.map((row: { day: string; model: string }) => [row.day, row.model])).toEqual([
      [day(2), "gpt-4o-mini"],
      [day(1), "o3"],
    ]);
    expect(body.rows[0]).toMatchObject({
      vendor: "openai",
      ours: { input_tokens: 1000, cost_usd: "0.195000000", transactions: 3 },
      reported: { input_tokens: 1000, cost_usd: "0.195000000" },
      difference: { cost_usd: "0.000000000" },
    });
    const snapshot = await (await read(`?from=${day(7)}&model=gpt-4o-mini-2024-07-18`)).json();
    expect(snapshot.rows.map((row: { model: string }) => row.model)).toEqual(["gpt-4o-mini"]);
    const anthropic = await (await read(`?provider=anthropic`)).json();
    expect(anthropic.rows).toEqual([]);
  });

  it("refuses bad ranges, unknown parameters and keys of another scope", async () => {
    const bad = await read(`?from=${day(1)}&to=${day(3)}&shape=round`);
    expect(bad.status).toBe(400);
    const fields = (await bad.json()).error.details.map((detail: { field: string }) => detail.field);
    expect(fields).toEqual(["shape"]);
    expect((await read(`?from=2026-02-30`)).status).toBe(400);
    expect((await read(`?from=${day(200)}`)).status).toBe(400);
    expect((await read(`?provider=xai`)).status).toBe(400);
    expect((await read("", setup.org.apiKey)).status).toBe(401);
  });
});

describe("reconciliation runs through the management API", () => {
  it("queue a run (admin) and give its state; refused without a connection or with a bad range", async () => {
    const none = await call("POST", orgPath("/reconciliation/runs"), { from: day(3), to: day(1) });
    expect(none.status).toBe(409);
    await putConnection(firestore(), setup.gateway.box, setup.org.organizationId, "openai", { credential: CREDENTIAL });
    const queued = await call("POST", orgPath("/reconciliation/runs"), { from: day(3), to: day(1) });
    expect(queued.status).toBe(202);
    const { id, state } = await queued.json();
    expect(state).toBe("queued");
    const run = await call("GET", orgPath(`/reconciliation/runs/${id}`));
    expect(run.status).toBe(200);
    expect(await run.json()).toMatchObject({ id, state: "queued", from: day(3), to: day(1), trigger: "requested" });
    const backwards = await call("POST", orgPath("/reconciliation/runs"), { from: day(1), to: day(3) });
    expect(backwards.status).toBe(400);
    const tooLong = await call("POST", orgPath("/reconciliation/runs"), { from: day(200), to: day(1) });
    expect(tooLong.status).toBe(400);
    const unknown = await call("POST", orgPath("/reconciliation/runs"), { from: day(3), to: day(1), vendor: "openai" });
    expect(unknown.status).toBe(400);
    expect((await call("GET", orgPath("/reconciliation/runs/run_nope"))).status).toBe(404);
    const byReadKey = await call(
      "POST",
      orgPath("/reconciliation/runs"),
      { from: day(3), to: day(1) },
      {
        "x-api-key": setup.org.readKey,
      },
    );
    expect(byReadKey.status).toBe(401);
  });
});
