import { BudgetsError, createClient } from "@usage-ingestion/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdmin } from "../../scripts/admin/main.ts";
import { sendUnits } from "../setup/budgets.ts";
import { type JsonResponse, startTestGateway } from "../setup/gateway.ts";
import { firestore, pullableTopic, seedOrganization } from "../setup/harness.ts";

const NOW = new Date("2026-10-25T15:00:00.000Z");
let org: Awaited<ReturnType<typeof seedOrganization>>;
let gateway: Awaited<ReturnType<typeof startTestGateway>>;
const admin = (...args: string[]) => runAdmin(args, firestore(), () => {});
const get = (query: string, key = org.readKey): Promise<JsonResponse> =>
  fetch(`${gateway.baseUrl}/usage/budgets${query}`, { headers: { "x-api-key": key } });

beforeAll(async () => {
  org = await seedOrganization();
  const id = org.organizationId;
  await admin("org", "dimensions", "set", id, "feature");
  await admin("pricing", "add", id, '{"provider":"custom","model":"house","unit":"0.25"}');
  await admin("budget", "create", id, "--id", "all", "--amount", "10", "--period", "day");
  await admin("budget", "create", id, "--id", "acme", "--amount", "2", "--period", "day", "--customer", "acme");
  await admin("budget", "create", id, "--id", "globex", "--amount", "2", "--period", "day", "--customer", "globex");
  await admin(
    "budget",
    "create",
    id,
    "--id",
    "chat",
    "--amount",
    "5",
    "--period",
    "month",
    "--dimension",
    "feature=chat",
  );
  await sendUnits(id, "2026-10-25T09:00:00.000Z", 8, { billable_customer_id: "acme", feature: "chat" });
  await sendUnits(id, "2026-10-25T10:00:00.000Z", 2, { billable_customer_id: "globex", feature: "search" });
  gateway = await startTestGateway({ topicName: (await pullableTopic()).topicName, now: () => NOW });
});
afterAll(() => gateway.close());

describe("GET /usage/budgets", () => {
  it("answers every budget with its period, spent, remaining, percent, thresholds crossed and forecast", async () => {
    const response = await get("");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = await response.json();
    expect(body.as_of).toBe(NOW.toISOString());
    expect(body.budgets.map((budget: { id: string }) => budget.id)).toEqual(["acme", "all", "chat", "globex"]);
    expect(body.budgets[0]).toEqual({
      id: "acme",
      name: null,
      scope: { customer: "acme" },
      amount_usd: "2.000000000",
      period: "day",
      time_zone: "UTC",
      thresholds: [50, 80, 100],
      current_period: { start: "2026-10-25T00:00:00.000Z", end: "2026-10-26T00:00:00.000Z" },
      spent_usd: "2.000000000",
      remaining_usd: "0.000000000",
      percent: "100.00",
      thresholds_crossed: [50, 80, 100],
      // 2 USD in 15 of 24 hours.
      forecast_usd: "3.200000000",
      as_of: NOW.toISOString(),
    });
    expect(body.budgets[1]).toMatchObject({ spent_usd: "2.500000000", percent: "25.00", thresholds_crossed: [] });
    expect(body.budgets[2]).toMatchObject({
      current_period: { start: "2026-10-01T00:00:00.000Z", end: "2026-11-01T00:00:00.000Z" },
      spent_usd: "2.000000000",
      thresholds_crossed: [],
    });
  });

  it("keeps the budgets a call with the given values counts towards", async () => {
    const ids = async (query: string) => (await (await get(query)).json()).budgets.map((b: { id: string }) => b.id);
    expect(await ids("?customer=acme")).toEqual(["acme", "all", "chat"]);
    expect(await ids("?customer=acme&context.feature=search")).toEqual(["acme", "all"]);
    expect(await ids("?customer=initech&provider=openai")).toEqual(["all", "chat"]);
    expect(await ids("?id=globex")).toEqual(["globex"]);
  });

  it("answers a bad parameter with a 400 naming it, and refuses keys that are not read keys", async () => {
    const errorOf = async (query: string) => {
      const response = await get(query);
      expect(response.status).toBe(400);
      return (await response.json()).error;
    };
    expect((await errorOf("?custmer=acme")).details).toEqual([
      expect.objectContaining({ field: "custmer", code: "invalid_value" }),
    ]);
    expect((await errorOf("?provider=acme-ai")).details[0]).toMatchObject({ field: "provider", code: "invalid_value" });
    expect((await errorOf("?context.team=red")).message).toMatch(/context.team is not a declared .*context.feature/);
    expect((await errorOf("?customer=a&customer=b")).details[0]).toMatchObject({
      field: "customer",
      code: "invalid_type",
    });
    expect((await errorOf(`?customer=${"x".repeat(300)}`)).details[0]).toMatchObject({ code: "too_large" });
    expect((await errorOf("?id=a%2Fb")).details[0]).toMatchObject({ field: "id", code: "invalid_format" });

    const ingest = await get("", org.apiKey);
    expect(ingest.status).toBe(401);
    expect((await ingest.json()).error.code).toBe("unauthorized");
    const post = await fetch(`${gateway.baseUrl}/usage/budgets`, {
      method: "POST",
      headers: { "x-api-key": org.readKey },
    });
    expect(post.status).toBe(405);
  });
});

describe("client.budgets", () => {
  it("reads the budgets a call counts towards with the read key, before the call is made", async () => {
    const client = createClient({ baseUrl: gateway.baseUrl, apiKey: org.apiKey, readKey: org.readKey });
    const answer = await client.budgets({ customer: "acme", context: { feature: "search" } });
    expect(answer.as_of).toBe(NOW.toISOString());
    expect(answer.budgets.map((budget) => [budget.id, budget.remaining_usd, budget.thresholds_crossed])).toEqual([
      ["acme", "0.000000000", [50, 80, 100]],
      ["all", "7.500000000", []],
    ]);
    // What an application does with it: refuse the call once a budget it counts towards is spent.
    expect(answer.budgets.some((budget) => Number(budget.percent) >= 100)).toBe(true);
    await client.close();
  });

  it("throws a BudgetsError with the status and code when the key cannot read", async () => {
    const client = createClient({ baseUrl: gateway.baseUrl, apiKey: org.apiKey });
    const error = await client.budgets().catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(BudgetsError);
    expect(error).toMatchObject({ status: 401, code: "unauthorized" });
    const bad = await createClient({ baseUrl: gateway.baseUrl, apiKey: org.readKey })
      .budgets({ provider: "acme-ai" })
      .catch((thrown: unknown) => thrown);
    expect(bad).toMatchObject({ status: 400, code: "validation_error" });
  });
});
