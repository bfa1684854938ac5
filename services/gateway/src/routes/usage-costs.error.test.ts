import { afterEach, describe, expect, it } from "vitest";
import type { ReportSettings } from "../env.ts";
import { fakeReportSource } from "../testing/fake-report-source.ts";
import { startTestGateway, type TestGateway } from "../testing/gateway-harness.ts";

const NOW = new Date("2026-05-02T00:00:00.000Z");
const RANGE = "from=2026-05-01T00:00:00Z&to=2026-05-01T12:00:00Z";
const SETTINGS: ReportSettings = {
  maxDocuments: 100,
  timeoutMs: 10_000,
  maxGroups: 4,
  groupsPerInstance: 6,
  atOnce: { perInstance: 8, perOrganization: 4, perKey: 4 },
};
const at = (minute: number) => new Date(Date.UTC(2026, 4, 1, 1, minute)).toISOString();

let gateway: TestGateway | undefined;
afterEach(async () => {
  await gateway?.close();
  gateway = undefined;
});

/** A gateway on `reports`; `seeded` makes an organization holding `records` records of `customers` customers. */
async function withRecords(reports = fakeReportSource(), settings: Partial<ReportSettings> = {}) {
  const started = await startTestGateway({ reports, now: () => NOW, reportSettings: { ...SETTINGS, ...settings } });
  gateway = started;
  const seeded = (records: number, customers: number) => {
    const org = started.keys.organization();
    const seeds = Array.from({ length: records }, (_, i) => ({
      received_at: at(i % 60),
      customer: `c-${i % customers}`,
    }));
    reports.add(org.organizationId, ...seeds);
    const costs = (query: string) =>
      started.request(`/usage/costs?${query}`, { headers: { "x-api-key": org.readKey } });
    return { organizationId: org.organizationId, costs };
  };
  return { reports, seeded };
}

describe("GET /usage/costs: refused queries", () => {
  it.each([
    ["a parameter it does not know", "colour=red", "colour"],
    ["a from that is no instant", "from=yesterday", "from"],
    ["to before from", "from=2026-05-01T10:00:00Z&to=2026-05-01T09:00:00Z", "to"],
    ["a group_by it does not know", "group_by=planet", "group_by"],
    ["an undeclared dimension", "group_by=context.team", "group_by"],
  ])("answers 400 validation_error for %s", async (_name, query, field) => {
    const { seeded } = await withRecords();
    const response = await seeded(1, 1).costs(query);
    expect(response.status).toBe(400);
    const { error } = await response.json();
    expect(error.code).toBe("validation_error");
    expect(error.message).toMatch(/^Invalid query: /);
    expect(error.details.map((detail: { field: string }) => detail.field)).toContain(field);
  });
});

describe("GET /usage/costs: a report past a ceiling", () => {
  it("answers 422 report_too_large with the figures when it would read too many documents", async () => {
    const { seeded } = await withRecords(fakeReportSource(), { maxDocuments: 3 });
    const response = await seeded(5, 1).costs(RANGE);
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      error: {
        code: "report_too_large",
        message:
          "This report is too large: it would read more than 3 documents (5 read so far); narrow the range or the grouping.",
      },
    });
    expect(response.headers.get("x-request-id")).toBeTruthy();
  });

  it("answers 422 naming the groups when it would hold too many, and the same range grouped by less", async () => {
    const { seeded } = await withRecords();
    const { costs } = seeded(5, 5);
    const refused = await costs(`${RANGE}&group_by=billable_customer_id`);
    expect(refused.status).toBe(422);
    expect((await refused.json()).error.message).toBe(
      "This report is too large: it would hold more than 4 groups (5 after 5 documents); narrow the range or the grouping.",
    );
    expect((await costs(RANGE)).status).toBe(200);
  });

  it("answers 429 with Retry-After when the reports beside it hold the instance's groups, and gives them back", async () => {
    const { reports, seeded } = await withRecords();
    // Four groups held by a report that waits on its second page, then a report needing three more: 7 > 6.
    const holding = seeded(51, 4);
    const busy = seeded(3, 3);
    const stall = reports.stall(holding.organizationId);
    const first = holding.costs(`${RANGE}&group_by=billable_customer_id`);
    await stall.reached;
    const refused = await busy.costs(`${RANGE}&group_by=billable_customer_id`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(await refused.json()).toEqual({
      error: {
        code: "rate_limited",
        message: "The reports running on this instance hold more than 6 groups together; retry shortly.",
      },
    });
    stall.release();
    expect((await first).status).toBe(200);
    expect((await busy.costs(`${RANGE}&group_by=billable_customer_id`)).status).toBe(200);
  });
});

describe("GET /usage/costs: the store failing", () => {
  it("answers 500 with the request id and no detail; the log gets the detail", async () => {
    const reports = fakeReportSource();
    const failing = {
      ...reports,
      declaredDimensions: async () => {
        throw new Error("firestore unavailable: secret detail");
      },
    };
    const { seeded } = await withRecords(failing as typeof reports);
    const response = await seeded(1, 1).costs(RANGE);
    expect(response.status).toBe(500);
    const requestId = response.headers.get("x-request-id");
    expect(await response.json()).toEqual({
      error: { code: "internal_error", message: `An internal error occurred; quote request id ${requestId}.` },
    });
    const logged = (gateway as TestGateway).logger.lines.find((line) => line.message === "unhandled error");
    expect(logged?.fields?.request_id).toBe(requestId);
    expect(String(logged?.fields?.error)).toContain("secret detail");
  });
});
