import { createHash } from "node:crypto";
import { reportPageTokens } from "@usage-ingestion/reports";
import { DEVELOPMENT_PAGE_TOKEN_KEY } from "@usage-ingestion/shared/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authCases } from "../testing/auth-cases.ts";
import type { FakeOrganization } from "../testing/fake-key-store.ts";
import { fakeReportSource } from "../testing/fake-report-source.ts";
import { startTestGateway, type TestGateway } from "../testing/gateway-harness.ts";

const NOW = new Date("2026-05-02T00:00:00.000Z");
const RANGE = "from=2026-05-01T00:00:00Z&to=2026-05-01T12:00:00Z";
/** The query the tokens below are made for: by customer, no filters. */
const PAGED = {
  from: new Date("2026-05-01T00:00:00Z"),
  to: new Date("2026-05-01T12:00:00Z"),
  groupBy: ["billable_customer_id"] as const,
  filters: {},
};

const reports = fakeReportSource();
let gateway: TestGateway;
let mine: FakeOrganization;
let theirs: FakeOrganization;
beforeAll(async () => {
  gateway = await startTestGateway({ reports, now: () => NOW });
  mine = gateway.keys.organization();
  theirs = gateway.keys.organization();
  reports.add(mine.organizationId, { received_at: "2026-05-01T01:00:00.000Z", customer: "mine", cost_nanos: 10 });
  reports.add(
    theirs.organizationId,
    { received_at: "2026-05-01T01:00:00.000Z", customer: "theirs", cost_nanos: 99 },
    { received_at: "2026-05-01T02:00:00.000Z", customer: "theirs-too", cost_nanos: 98 },
  );
});
afterAll(() => gateway.close());

const costs = (query: string, headers: Record<string, string>) => gateway.request(`/usage/costs?${query}`, { headers });

describe("GET /usage/costs: who may read", () => {
  it.each(authCases("read"))("answers 401 unauthorized for $name, reading nothing", async (refused) => {
    const reads = reports.reads.length;
    const response = await costs(RANGE, refused.headers(gateway.keys));
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      error: { code: "unauthorized", message: expect.stringMatching(refused.message) },
    });
    expect(reports.reads.length).toBe(reads);
  });
});

describe("GET /usage/costs: one organization's data", () => {
  it("answers a read key with its own organization's costs only, and never reads another's", async () => {
    const reads = reports.reads.length;
    const response = await costs(`${RANGE}&group_by=billable_customer_id`, { "x-api-key": mine.readKey });
    expect(response.status).toBe(200);
    const report = await response.json();
    expect(report.groups.map((group: { key: object }) => group.key)).toEqual([{ billable_customer_id: "mine" }]);
    expect(report.totals.cost_nanos).toBe("10");
    expect(new Set(reports.reads.slice(reads))).toEqual(new Set([mine.organizationId]));
  });

  it("takes no organization from the query: naming another is an unknown parameter", async () => {
    const response = await costs(`${RANGE}&organization_id=${theirs.organizationId}`, { "x-api-key": mine.readKey });
    expect(response.status).toBe(400);
    expect((await response.json()).error.details[0]).toMatchObject({ field: "organization_id", code: "invalid_value" });
  });

  it("cannot turn another organization's page token into its data, nor read its own with it", async () => {
    const first = await (
      await costs(`${RANGE}&group_by=billable_customer_id&limit=1`, { "x-api-key": theirs.readKey })
    ).json();
    expect(first.next_page_token).toEqual(expect.any(String));
    // Good for the organization it was signed for.
    const theirNext = await costs(`group_by=billable_customer_id&limit=1&page_token=${first.next_page_token}`, {
      "x-api-key": theirs.readKey,
    });
    expect(theirNext.status).toBe(200);
    const reads = reports.reads.length;
    const response = await costs(`group_by=billable_customer_id&page_token=${first.next_page_token}`, {
      "x-api-key": mine.readKey,
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error.details).toEqual([
      expect.objectContaining({ field: "page_token", code: "invalid_value" }),
    ]);
    expect(reports.reads.length).toBe(reads);
  });
});

describe("GET /usage/costs: page tokens are signed", () => {
  const pageOf = async (headers: Record<string, string>) => {
    const first = await (await costs(`${RANGE}&group_by=billable_customer_id&limit=1`, headers)).json();
    return first.next_page_token as string;
  };

  it.each([
    // The unsigned form tokens once had: offset, from, to and the query's fingerprint, readable and writable.
    [
      "an unsigned token naming a far-future range",
      () => {
        const fingerprint = createHash("sha256")
          .update(JSON.stringify([["billable_customer_id"], []]))
          .digest("base64url")
          .slice(0, 16);
        return Buffer.from(`0.0.${Date.parse("2999-01-01T00:00:00Z")}.${fingerprint}`).toString("base64url");
      },
    ],
    ["a token of another key", () => reportPageTokens("k".repeat(44)).sign("x", PAGED, 0)],
    ["text that is no token", () => "bm90LWEtdG9rZW4"],
  ])("answers 400 for %s, reading nothing", async (_name, token) => {
    const reads = reports.reads.length;
    const response = await costs(`group_by=billable_customer_id&page_token=${token()}`, { "x-api-key": mine.readKey });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatchObject({
      code: "validation_error",
      details: [expect.objectContaining({ field: "page_token", code: "invalid_value" })],
    });
    expect(reports.reads.length).toBe(reads);
  });

  it("answers 400 for a token whose range was changed, whatever part is changed", async () => {
    const token = await pageOf({ "x-api-key": theirs.readKey });
    const [payload, signature] = token.split(".") as [string, string];
    const values = JSON.parse(Buffer.from(payload, "base64url").toString());
    // A `to` far in the future, with the signature of the range that was signed.
    values[3] = Date.parse("2999-01-01T00:00:00Z");
    const forged = `${Buffer.from(JSON.stringify(values)).toString("base64url")}.${signature}`;
    const response = await costs(`group_by=billable_customer_id&page_token=${forged}`, { "x-api-key": theirs.readKey });
    expect(response.status).toBe(400);
    expect((await response.json()).error.details[0]).toMatchObject({ field: "page_token" });
  });

  it("checks the 400-day range again on a token it signed", async () => {
    // Signed with the key this gateway uses (the development key): a token that breaks the range rule is
    // still refused, as if the key had leaked.
    const tokens = reportPageTokens(DEVELOPMENT_PAGE_TOKEN_KEY);
    const range = { from: new Date("2020-01-01T00:00:00Z"), to: new Date("2999-01-01T00:00:00Z") };
    const token = tokens.sign(mine.organizationId, { ...PAGED, ...range }, 0);
    const reads = reports.reads.length;
    const response = await costs(`group_by=billable_customer_id&page_token=${token}`, { "x-api-key": mine.readKey });
    expect(response.status).toBe(400);
    expect((await response.json()).error.details).toEqual([
      expect.objectContaining({
        field: "page_token",
        code: "too_large",
        message: "to must be at most 400 days after from",
      }),
    ]);
    expect(reports.reads.length).toBe(reads);
    // The same token with a range inside the rule is served.
    const within = tokens.sign(mine.organizationId, { ...PAGED, from: new Date("2026-05-01T00:00:00Z"), to: NOW }, 0);
    expect(
      (await costs(`group_by=billable_customer_id&page_token=${within}`, { "x-api-key": mine.readKey })).status,
    ).toBe(200);
  });
});

describe("GET /usage/costs: hostile queries", () => {
  it.each([
    ["__proto__ as a parameter", "__proto__=1"],
    ["constructor as a group", "group_by=constructor"],
    ["a parameter given twice", "model=a&model=b"],
    ["a huge page limit", "limit=10000000"],
    ["a range past the longest allowed", "from=2000-01-01&to=2026-05-01"],
  ])("answers 400 for %s, never 500", async (_name, query) => {
    const response = await costs(query, { "x-api-key": mine.readKey });
    expect(response.status).toBe(400);
    expect((await response.json()).error.code).toBe("validation_error");
  });

  it("keeps a formula out of the CSV a spreadsheet opens", async () => {
    const org = gateway.keys.organization();
    reports.add(org.organizationId, { received_at: "2026-05-01T03:00:00.000Z", customer: "=HYPERLINK(1)" });
    const response = await costs(`${RANGE}&group_by=billable_customer_id&format=csv`, { "x-api-key": org.readKey });
    const text = await response.text();
    expect(text).toContain("'=HYPERLINK(1)");
    expect(text).not.toMatch(/^=HYPERLINK/m);
  });
});
