import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reportFixture } from "../setup/reports.ts";

/**
 * Two whole days and the edges of a third, seeded as the worker writes records and roll-ups. Expected
 * figures are added up by hand from the seeds below.
 */
const seeds = [
  // 2026-03-01: whole day
  {
    received_at: "2026-03-01T08:00:00.000Z",
    customer: "acme",
    context: { feature: "chat" },
    cost_nanos: 1_500_000_000,
  },
  { received_at: "2026-03-01T09:00:00.000Z", customer: "acme", context: { feature: "chat" }, cost_nanos: 500_000_001 },
  {
    received_at: "2026-03-01T10:00:00.000Z",
    customer: "globex",
    provider: "anthropic" as const,
    model: "claude-sonnet-4-5",
    context: { feature: "search" },
    cost_nanos: 250,
  },
  { received_at: "2026-03-01T11:00:00.000Z", customer: "acme", model: "mystery-1", status: "unpriced" as const },
  {
    received_at: "2026-03-01T12:00:00.000Z",
    customer: "acme",
    context: { feature: "chat" },
    status: "conflict" as const,
  },
  { received_at: "2026-03-01T13:00:00.000Z", customer: "acme", status: "duplicate" as const, cost_nanos: 999 },
  // 2026-03-02: 06:00 and 18:00, so a range from 12:00 keeps only the second
  { received_at: "2026-03-02T06:00:00.000Z", customer: "globex", context: { feature: "chat" }, cost_nanos: 7 },
  { received_at: "2026-03-02T18:00:00.000Z", customer: "acme", context: { feature: "chat" }, cost_nanos: 3 },
];

let fixture: Awaited<ReturnType<typeof reportFixture>>;
beforeAll(async () => {
  fixture = await reportFixture(["feature"], seeds);
});
afterAll(() => fixture.gateway.close());

const costs = async (query: string) => {
  const response = await fixture.get(`/usage/costs?${query}`);
  expect(response.status).toBe(200);
  return response.json();
};

describe("GET /usage/costs", () => {
  it("totals whole days from roll-ups exactly, counting conflicts and never duplicates", async () => {
    const body = await costs("from=2026-03-01&to=2026-03-02");
    expect(body.from).toBe("2026-03-01T00:00:00.000Z");
    expect(body.to).toBe("2026-03-02T00:00:00.000Z");
    expect(body.totals).toMatchObject({
      cost_nanos: "2000000251",
      cost_usd: "2.000000251",
      transactions: 4,
      unpriced_transactions: 1,
      conflict_transactions: 1,
    });
    // 4 billed records of 100 input and 20 output tokens each
    expect(body.totals.quantities).toMatchObject({ input_tokens: 400, output_tokens: 80 });
  });

  it("groups by customer and model, largest cost first", async () => {
    const body = await costs("from=2026-03-01&to=2026-03-02&group_by=billable_customer_id,model");
    expect(body.group_by).toEqual(["billable_customer_id", "model"]);
    expect(
      body.groups.map((g: { key: unknown; cost_nanos: string; transactions: number }) => [
        g.key,
        g.cost_nanos,
        g.transactions,
      ]),
    ).toEqual([
      [{ billable_customer_id: "acme", model: "gpt-4o" }, "2000000001", 2],
      [{ billable_customer_id: "globex", model: "claude-sonnet-4-5" }, "250", 1],
      [{ billable_customer_id: "acme", model: "mystery-1" }, "0", 1],
    ]);
  });

  it("sums the part of a day at an edge from the records, half-open [from, to)", async () => {
    const body = await costs("from=2026-03-01T00:00:00Z&to=2026-03-02T18:00:00Z&group_by=day");
    expect(body.groups.map((g: { key: { day: string }; cost_nanos: string }) => [g.key.day, g.cost_nanos])).toEqual([
      ["2026-03-01", "2000000251"],
      ["2026-03-02", "7"],
    ]);
    const tail = await costs("from=2026-03-02T12:00:00%2B02:00&to=2026-03-03");
    expect(tail.totals).toMatchObject({ cost_nanos: "3", transactions: 1 });
  });

  it("gives the same answer from records as from roll-ups", async () => {
    const fromCells = await costs("from=2026-03-01&to=2026-03-02&group_by=provider,context.feature");
    const fromRecords = await costs(
      "from=2026-02-28T23:59:59.999Z&to=2026-03-01T23:59:59.999Z&group_by=provider,context.feature",
    );
    expect(fromRecords.groups).toEqual(fromCells.groups);
    expect(fromRecords.totals).toEqual(fromCells.totals);
  });

  it("filters by fields and declared context dimensions", async () => {
    const chat = await costs("from=2026-03-01&to=2026-03-03&context.feature=chat&group_by=billable_customer_id");
    expect(chat.filters).toEqual({ "context.feature": "chat" });
    expect(chat.groups.map((g: { key: unknown; cost_nanos: string }) => [g.key, g.cost_nanos])).toEqual([
      [{ billable_customer_id: "acme" }, "2000000004"],
      [{ billable_customer_id: "globex" }, "7"],
    ]);
    expect(chat.totals.conflict_transactions).toBe(1);
    const anthropic = await costs("from=2026-03-01&to=2026-03-03&provider=anthropic");
    expect(anthropic.totals).toMatchObject({ cost_nanos: "250", transactions: 1 });
  });

  it("answers CSV with the same rows and a total line", async () => {
    const response = await fixture.get("/usage/costs?from=2026-03-01&to=2026-03-02&group_by=provider");
    const json = await response.json();
    const csv = await fixture.get("/usage/costs?from=2026-03-01&to=2026-03-02&group_by=provider&format=csv");
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
    const lines = (await csv.text()).trimEnd().split("\r\n");
    expect(lines[0]).toMatch(
      /^row,provider,cost_usd,cost_nanos,transactions,unpriced_transactions,conflict_transactions,input_tokens,/,
    );
    expect(lines.slice(1).map((line) => line.split(",").slice(0, 5))).toEqual([
      ...json.groups.map(
        (g: { key: { provider: string }; cost_usd: string; cost_nanos: string; transactions: number }) => [
          "group",
          g.key.provider,
          g.cost_usd,
          g.cost_nanos,
          String(g.transactions),
        ],
      ),
      ["total", "", "2.000000251", "2000000251", "4"],
    ]);
  });
});
