import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway } from "../setup/gateway.ts";
import { pullableTopic } from "../setup/harness.ts";
import { minutesAgo } from "../setup/records.ts";
import { reportFixture } from "../setup/reports.ts";

// The records routes' refusals: every bad parameter a 400 naming it, 404 for no such record, 405 for another
// method, the report ceilings (422) and limits (429), and never a 5xx for what a client sends.

let fixture: Awaited<ReturnType<typeof reportFixture>>;
beforeAll(async () => {
  const seeds = Array.from({ length: 30 }, (_, i) => ({
    received_at: minutesAgo(10 + i),
    customer: i === 29 ? "rare" : "common",
    context: { feature: i % 2 === 0 ? "chat" : "search" },
  }));
  fixture = await reportFixture(["feature", "team"], seeds);
});
afterAll(() => fixture.gateway.close());

const refusal = async (path: string, status = 400) => {
  const response = await fixture.get(path);
  const body = await response.json();
  expect(response.status, JSON.stringify(body)).toBe(status);
  return body.error;
};
const detailOf = async (query: string) => {
  const error = await refusal(`/usage/records?${query}`);
  expect(error.code).toBe("validation_error");
  expect(error.details).toHaveLength(1);
  return error.details[0];
};

describe("GET /usage/records parameters", () => {
  it("names each bad parameter in a 400 validation_error", async () => {
    expect(await detailOf("provder=openai")).toMatchObject({ field: "provder", code: "invalid_value" });
    expect(await detailOf("provider=acme-ai")).toMatchObject({ field: "provider", code: "invalid_value" });
    expect(await detailOf("status=billed")).toMatchObject({ field: "status", code: "invalid_value" });
    expect(await detailOf("model=a&model=b")).toMatchObject({ field: "model", code: "invalid_type" });
    expect(await detailOf("model=")).toMatchObject({ field: "model", code: "too_small" });
    expect(await detailOf(`billable_customer_id=${"x".repeat(257)}`)).toMatchObject({
      field: "billable_customer_id",
      code: "too_large",
    });
    expect(await detailOf("from=yesterday")).toMatchObject({ field: "from", code: "invalid_format" });
    expect(await detailOf("from=2026-02-30")).toMatchObject({ field: "from", code: "invalid_format" });
    expect(await detailOf("from=2026-03-02&to=2026-03-01")).toMatchObject({ field: "to", code: "invalid_value" });
    expect(await detailOf("from=2024-01-01&to=2026-01-01")).toMatchObject({ field: "to", code: "too_large" });
    expect(await detailOf("day=2026-03-01")).toMatchObject({ field: "day", code: "invalid_value" });
    expect(await detailOf("group_by=model")).toMatchObject({ field: "group_by", code: "invalid_value" });
  });

  it("takes limit from 1 to 1,000", async () => {
    expect(await detailOf("limit=0")).toMatchObject({ field: "limit", code: "too_small" });
    expect(await detailOf("limit=1001")).toMatchObject({ field: "limit", code: "too_large" });
    expect(await detailOf("limit=ten")).toMatchObject({ field: "limit", code: "invalid_type" });
    expect(await detailOf("limit=1.5")).toMatchObject({ field: "limit", code: "invalid_type" });
    expect(await detailOf(`limit=${"9".repeat(400)}`)).toMatchObject({ field: "limit", code: "invalid_type" });
  });

  it("takes only declared dimensions, and lists them", async () => {
    const error = await refusal("/usage/records?context.region=eu");
    expect(error.details[0]).toMatchObject({ field: "context.region", code: "invalid_value" });
    expect(error.message).toContain("context.feature, context.team");
  });

  it("refuses a page token that is not one of this listing's", async () => {
    expect(await detailOf("page_token=nonsense")).toMatchObject({ field: "page_token", code: "invalid_value" });
    expect(await detailOf("page_token=")).toMatchObject({ field: "page_token", code: "too_small" });
    expect(await detailOf(`page_token=${"a".repeat(3_000)}`)).toMatchObject({ field: "page_token", code: "too_large" });
    const { next_page_token: token } = await (await fixture.get("/usage/records?limit=5")).json();
    expect(token).toEqual(expect.any(String));
    const other = encodeURIComponent(token);
    // Another filter, another range than the first page's.
    expect(await detailOf(`page_token=${other}&billable_customer_id=common`)).toMatchObject({ field: "page_token" });
    expect(await detailOf(`page_token=${other}&from=2026-01-01`)).toMatchObject({ field: "page_token" });
    const ok = await fixture.get(`/usage/records?limit=5&page_token=${other}`);
    expect(ok.status).toBe(200);
  });
});

describe("GET /usage/records/{message_id}", () => {
  it("answers 404 not_found for a record that does not exist", async () => {
    for (const id of ["1234567890", "m-does-not-exist", "a%20b", "%C3%A9t%C3%A9"]) {
      const error = await refusal(`/usage/records/${id}`, 404);
      expect(error).toEqual({ code: "not_found", message: expect.any(String) });
    }
  });

  it("answers 400 for an id that could never be a record's, never a 5xx", async () => {
    for (const [id, code] of [
      ["%E0%A4%A", "invalid_format"],
      ["%", "invalid_format"],
      ["a%2Fb", "invalid_format"],
      ["__name__", "invalid_format"],
      ["%00", "invalid_format"],
      ["%ED%A0%80", "invalid_format"],
      ["x".repeat(257), "too_large"],
    ] as const) {
      const error = await refusal(`/usage/records/${id}`);
      expect(error.code, id).toBe("validation_error");
      expect(error.details, id).toEqual([expect.objectContaining({ field: "message_id", code })]);
    }
  });

  it("answers 405 to other methods on both routes", async () => {
    for (const path of ["/usage/records", "/usage/records/123"]) {
      const response = await fetch(`${fixture.gateway.baseUrl}${path}`, {
        method: "POST",
        headers: { "x-api-key": fixture.readKey },
      });
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("GET");
    }
  });
});

describe("the report ceilings and limits", () => {
  it("answers 422 report_too_large past the documents a listing may read", async () => {
    const topic = await pullableTopic();
    const small = await startTestGateway({
      topicName: topic.topicName,
      reportSettings: {
        maxDocuments: 10,
        timeoutMs: 15_000,
        maxGroups: 50_000,
        groupsPerInstance: 60_000,
        atOnce: { perInstance: 8, perOrganization: 4, perKey: 4 },
      },
    });
    try {
      const get = (query: string) =>
        fetch(`${small.baseUrl}/usage/records?${query}`, { headers: { "x-api-key": fixture.readKey } });
      // The customer leads the query: one document read. A dimension alone is matched as records are read.
      expect((await get("billable_customer_id=rare")).status).toBe(200);
      const scan = await get("context.feature=nothing-has-this");
      expect(scan.status).toBe(422);
      const body = await scan.json();
      expect(body.error.code).toBe("report_too_large");
      expect(body.error.message).toMatch(/more than 10 documents/);
    } finally {
      await small.close();
    }
  });

  it("counts against the reports at once and the report rate limit like the other read routes", async () => {
    const topic = await pullableTopic();
    const limited = await startTestGateway({
      topicName: topic.topicName,
      rateLimits: {
        organization: { ingestPerSecond: 100, ingestBurst: 0, reportsPerMinute: 100 },
        key: { ingestPerSecond: 100, ingestBurst: 0, reportsPerMinute: 2 },
        unknownKeysPerMinute: 60,
      },
    });
    try {
      const get = (path: string) => fetch(`${limited.baseUrl}${path}`, { headers: { "x-api-key": fixture.readKey } });
      expect((await get("/usage/records")).status).toBe(200);
      expect((await get("/usage/records/123")).status).toBe(404);
      const limitedAnswer = await get("/usage/costs");
      expect(limitedAnswer.status).toBe(429);
      expect((await limitedAnswer.json()).error.code).toBe("rate_limited");
      expect(limitedAnswer.headers.get("retry-after")).toEqual(expect.any(String));
    } finally {
      await limited.close();
    }
  });
});
