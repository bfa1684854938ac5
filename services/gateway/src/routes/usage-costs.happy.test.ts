import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeReportSource } from "../testing/fake-report-source.ts";
import { startTestGateway, type TestGateway } from "../testing/gateway-harness.ts";

const NOW = new Date("2026-05-02T00:00:00.000Z");
const RANGE = "from=2026-05-01T00:00:00Z&to=2026-05-01T12:00:00Z";

const reports = fakeReportSource();
let gateway: TestGateway;
let readKey: Record<string, string>;
beforeAll(async () => {
  gateway = await startTestGateway({ reports, now: () => NOW });
  const org = gateway.keys.organization();
  readKey = { "x-api-key": org.readKey };
  reports.add(
    org.organizationId,
    { received_at: "2026-05-01T01:00:00.000Z", customer: "acme", cost_nanos: 3_000 },
    { received_at: "2026-05-01T02:30:00.000Z", customer: "acme", cost_nanos: 4_000 },
    { received_at: "2026-05-01T11:59:59.999Z", customer: "globex", cost_nanos: 500 },
    // Outside the range: [from, to).
    { received_at: "2026-05-01T12:00:00.000Z", customer: "globex", cost_nanos: 1_000_000 },
  );
});
afterAll(() => gateway.close());

const costs = (query: string) => gateway.request(`/usage/costs?${query}`, { headers: readKey });

describe("GET /usage/costs", () => {
  it("sums the organization's records in [from, to) by customer, the largest first, never cached", async () => {
    const response = await costs(`${RANGE}&group_by=billable_customer_id`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const report = await response.json();
    expect(report).toMatchObject({
      from: "2026-05-01T00:00:00.000Z",
      to: "2026-05-01T12:00:00.000Z",
      group_by: ["billable_customer_id"],
    });
    expect(report.groups.map((group: { key: object; cost_nanos: string; transactions: number }) => group)).toEqual([
      expect.objectContaining({ key: { billable_customer_id: "acme" }, cost_nanos: "7000", transactions: 2 }),
      expect.objectContaining({ key: { billable_customer_id: "globex" }, cost_nanos: "500", transactions: 1 }),
    ]);
    expect(report.totals).toMatchObject({ cost_nanos: "7500", cost_usd: "0.000007500", transactions: 3 });
    expect(report).not.toHaveProperty("next_page_token");
  });

  it("pages the groups with a token, totals always over every group", async () => {
    const first = await (await costs(`${RANGE}&group_by=billable_customer_id&limit=1`)).json();
    expect(first.groups).toHaveLength(1);
    expect(first.totals.cost_nanos).toBe("7500");
    const second = await (
      await costs(`group_by=billable_customer_id&limit=1&page_token=${first.next_page_token}`)
    ).json();
    expect(second.groups.map((group: { key: object }) => group.key)).toEqual([{ billable_customer_id: "globex" }]);
    expect(second).not.toHaveProperty("next_page_token");
  });

  it("downloads CSV under a name that says what it holds", async () => {
    const response = await costs(`${RANGE}&group_by=billable_customer_id&format=csv`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe("attachment; filename=costs_2026-05-01_2026-05-01.csv");
    const lines = (await response.text()).trimEnd().split("\r\n");
    expect(lines).toHaveLength(1 + 2 + 1);
    expect(lines[1]).toMatch(/^group,acme,0\.000007000,7000,2,/);
  });
});
