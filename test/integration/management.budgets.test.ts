import { createApiKey } from "@usage-ingestion/organizations";
import { beforeAll, describe, expect, it } from "vitest";
import { runAdmin } from "../../scripts/admin/main.ts";
import { gatewayOnEmulators } from "../setup/gateway.ts";
import { databases, firestore, reportsFirestore, seedOrganization } from "../setup/harness.ts";
import { managementCalls } from "../setup/management.ts";

const setup = gatewayOnEmulators();
let adminKey: string;

const { call, orgPath } = managementCalls(setup, () => adminKey);

/** The organization's budget entries, oldest first. */
async function budgetEntries() {
  const log = (await (await call("GET", orgPath("/audit-log"))).json()).entries as Array<{ action: string }>;
  return log.filter((entry) => entry.action.startsWith("budget.")).reverse();
}

async function admin(...args: string[]) {
  const lines: string[] = [];
  await runAdmin(args, firestore(), (line) => lines.push(line), { reportsDb: reportsFirestore() });
  return lines;
}

beforeAll(async () => {
  adminKey = (await createApiKey(databases(), setup.org.organizationId, undefined, undefined, "admin")).key;
});

describe("budgets through the management API", () => {
  it("creates a budget the command line shows alike, with its status and etag", async () => {
    const created = await call("POST", orgPath("/budgets"), {
      id: "monthly",
      name: "Monthly",
      amount_usd: "250.5",
      period: "month",
      time_zone: "Europe/Paris",
      thresholds: [100, 50],
    });
    expect(created.status).toBe(201);
    const budget = await created.json();
    expect(budget).toMatchObject({
      id: "monthly",
      name: "Monthly",
      scope: {},
      amount_usd: "250.500000000",
      period: "month",
      time_zone: "Europe/Paris",
      thresholds: [50, 100],
    });
    expect(created.headers.get("etag")).toBe(`"${budget.etag}"`);
    expect((await call("POST", orgPath("/budgets"), { id: "monthly", amount_usd: "1", period: "day" })).status).toBe(
      409,
    );

    const one = await (await call("GET", orgPath("/budgets/monthly"))).json();
    expect(one).toMatchObject({ id: "monthly", spent_usd: expect.any(String), percent: expect.any(String) });
    expect(one.etag).toBe(budget.etag);
    const shown = JSON.parse((await admin("budget", "show", setup.org.organizationId, "monthly")).join("\n"));
    const { as_of: _cliAsOf, ...cli } = shown;
    const { as_of: _apiAsOf, etag: _etag, ...api } = one;
    expect(api).toEqual(cli);

    const list = await (await call("GET", orgPath("/budgets?limit=1"))).json();
    expect(list.budgets).toHaveLength(1);
    expect(list.budgets[0]).toMatchObject({ id: "monthly", current_period: expect.any(Object) });
    expect(await budgetEntries()).toEqual([
      expect.objectContaining({
        action: "budget.created",
        actor: { type: "api_key", id: expect.any(String) },
        target: { type: "budget", id: "monthly" },
        changes: { before: null, after: expect.objectContaining({ amount_usd: "250.500000000" }) },
      }),
    ]);
  });

  it("refuses bad bodies with field details and records nothing", async () => {
    const bad = await call("POST", orgPath("/budgets"), { amount_usd: 5, period: "year", colour: "red" });
    expect(bad.status).toBe(400);
    const fields = (await bad.json()).error.details.map((detail: { field: string }) => detail.field);
    expect(fields).toEqual(expect.arrayContaining(["amount_usd"]));
    expect((await call("POST", orgPath("/budgets"), { id: "__x__", amount_usd: "1", period: "day" })).status).toBe(400);
    expect((await call("PATCH", orgPath("/budgets/monthly"), {})).status).toBe(400);
    expect((await call("GET", orgPath("/budgets/no-such"))).status).toBe(404);
    expect((await call("GET", orgPath("/budgets/__x__"))).status).toBe(404);
    expect(await budgetEntries()).toHaveLength(1);
  });

  it("updates and deletes only with a current If-Match, one entry per change", async () => {
    const { etag } = await (await call("GET", orgPath("/budgets/monthly"))).json();
    const stale = await call("PATCH", orgPath("/budgets/monthly"), { amount_usd: "9" }, { "if-match": '"stale"' });
    expect(stale.status).toBe(409);
    expect((await stale.json()).error.code).toBe("conflict");
    expect((await (await call("GET", orgPath("/budgets/monthly"))).json()).amount_usd).toBe("250.500000000");
    expect(await budgetEntries()).toHaveLength(1);

    const patched = await call(
      "PATCH",
      orgPath("/budgets/monthly"),
      { amount_usd: "300" },
      { "if-match": `"${etag}"` },
    );
    expect(patched.status).toBe(200);
    const updated = await patched.json();
    expect(updated).toMatchObject({ amount_usd: "300.000000000", name: "Monthly" });
    expect(updated.etag).not.toBe(etag);
    const reused = await call("DELETE", orgPath("/budgets/monthly"), undefined, { "if-match": `"${etag}"` });
    expect(reused.status).toBe(409);

    const removed = await call("DELETE", orgPath("/budgets/monthly"), undefined, { "if-match": `"${updated.etag}"` });
    expect(removed.status).toBe(204);
    expect((await call("GET", orgPath("/budgets/monthly"))).status).toBe(404);
    const entries = await budgetEntries();
    expect(entries.map((entry) => entry.action)).toEqual(["budget.created", "budget.updated", "budget.deleted"]);
    expect(entries[1]).toMatchObject({
      changes: {
        before: expect.objectContaining({ amount_usd: "250.500000000" }),
        after: expect.objectContaining({ amount_usd: "300.000000000" }),
      },
    });
  });

  it("answers 404 for another organization's budgets", async () => {
    const other = await seedOrganization();
    expect((await call("GET", `/v1/orgs/${other.organizationId}/budgets`)).status).toBe(404);
    const created = await call("POST", `/v1/orgs/${other.organizationId}/budgets`, { amount_usd: "1", period: "day" });
    expect(created.status).toBe(404);
    expect(await admin("budget", "list", other.organizationId)).toEqual(["no budgets"]);
  });
});
