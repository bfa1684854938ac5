import { MAX_PAGE_BYTES } from "@usage-ingestion/records";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedUsage } from "../../scripts/lib/seed-usage.ts";
import { firestore, seedOrganization } from "../setup/harness.ts";
import { idsOf, minutesAgo, workerStore } from "../setup/records.ts";
import { reportFixture } from "../setup/reports.ts";

// GET /usage/records and GET /usage/records/{message_id} with a read key: records seeded as the worker
// writes them, and records stored through the worker's own handler (priced, with their rates).

const started = Date.now();
let fixture: Awaited<ReturnType<typeof reportFixture>>;
/** Message ids of the records the worker stored, by name. */
const stored: Record<string, string> = {};

beforeAll(async () => {
  fixture = await reportFixture(
    ["feature"],
    [
      { received_at: minutesAgo(60, started), customer: "acme", context: { feature: "chat" } },
      { received_at: minutesAgo(120, started), customer: "acme", status: "unpriced", model: "mystery-1" },
      { received_at: minutesAgo(180, started), customer: "globex", provider: "anthropic", model: "claude-x" },
      { received_at: minutesAgo(240, started), customer: "globex", model_tier: "batch", context: { feature: "chat" } },
      { received_at: minutesAgo(300, started), customer: "acme", status: "conflict" },
      // Outside the default range (30 days and the day before), and inside an explicit one.
      { received_at: "2026-01-15T10:00:00.000Z", customer: "acme" },
    ],
  );
  const store = workerStore();
  stored.priced = await store(fixture.organizationId, minutesAgo(30, started), {
    transaction_id: "resp_1",
    context: { billable_customer_id: "initech", feature: "search" },
    provider_usage_raw: { prompt_tokens: 1200 },
  });
  stored.duplicate = await store(fixture.organizationId, minutesAgo(20, started), {
    transaction_id: "resp_1",
    context: { billable_customer_id: "initech", feature: "search" },
    provider_usage_raw: { prompt_tokens: 1200 },
  });
});
afterAll(() => fixture.gateway.close());

const list = async (query = "") => {
  const response = await fixture.get(`/usage/records${query}`);
  expect(response.status, JSON.stringify(await response.clone().json())).toBe(200);
  return response.json();
};

describe("GET /usage/records", () => {
  it("lists the organization's records in the range, newest received first", async () => {
    const response = await fixture.get("/usage/records");
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = await response.json();
    expect(Object.keys(body)).toEqual(["records"]);
    expect(body.records).toHaveLength(7);
    const times = body.records.map((record: { received_at: string }) => record.received_at);
    expect(times).toEqual([...times].sort().reverse());
    expect(idsOf(body).slice(0, 2)).toEqual([stored.duplicate, stored.priced]);
    expect(body.records.map((record: { status: string }) => record.status)).toEqual([
      "duplicate",
      "priced",
      "priced",
      "unpriced",
      "priced",
      "priced",
      "conflict",
    ]);
  });

  it("answers each record in its public shape, and nothing internal", async () => {
    const [duplicate, priced] = (await list()).records;
    expect(Object.keys(priced).sort()).toEqual(
      [
        "message_id",
        "received_at",
        "provider",
        "model",
        "model_tier",
        "status",
        "unpriced_reason",
        "cost_usd",
        "provider_reported_cost",
        "context",
        "usage",
        "transaction_id",
        "duplicate_of",
        "line_items",
      ].sort(),
    );
    expect(priced).toMatchObject({
      message_id: stored.priced,
      provider: "openai",
      model: "gpt-4o",
      model_tier: null,
      status: "priced",
      unpriced_reason: null,
      cost_usd: expect.stringMatching(/^\d+\.\d{9}$/),
      context: { billable_customer_id: "initech", feature: "search" },
      transaction_id: "resp_1",
      duplicate_of: null,
      provider_reported_cost: null,
    });
    expect(priced.line_items.length).toBeGreaterThan(0);
    for (const item of priced.line_items) {
      expect(Object.keys(item).sort()).toEqual(
        [
          "usage_type",
          "component",
          "quantity",
          "unit",
          "unit_price_usd",
          "unit_price_per",
          "cost_usd",
          "price_source",
        ].sort(),
      );
      expect(item.price_source).toEqual(expect.any(String));
    }
    // The total is the sum of the line items, to the nano-dollar.
    const nanos = (usd: string) => BigInt(usd.replace(".", ""));
    const sum = priced.line_items.reduce(
      (total: bigint, item: { cost_usd: string }) => total + nanos(item.cost_usd),
      0n,
    );
    expect(sum).toBe(nanos(priced.cost_usd));
    expect(duplicate).toMatchObject({
      status: "duplicate",
      duplicate_of: stored.priced,
      cost_usd: null,
      line_items: [],
    });
    expect(JSON.stringify(await list())).not.toMatch(/organization_id|request_id|cost_nanos|dimensions|revision/);
  });

  it("filters like /usage/costs: customer, provider, model, tier, status, declared dimension, range", async () => {
    const statuses = (body: { records: Array<{ status: string }> }) => body.records.map((record) => record.status);
    expect((await list("?billable_customer_id=acme")).records).toHaveLength(3);
    expect(statuses(await list("?billable_customer_id=acme&status=unpriced"))).toEqual(["unpriced"]);
    expect((await list("?provider=anthropic")).records.map((r: { model: string }) => r.model)).toEqual(["claude-x"]);
    expect((await list("?model=mystery-1")).records[0].unpriced_reason).toBe("unknown_model");
    expect((await list("?model_tier=batch")).records[0].context.billable_customer_id).toBe("globex");
    expect(statuses(await list("?status=conflict"))).toEqual(["conflict"]);
    expect(idsOf(await list("?context.feature=search"))).toEqual([stored.duplicate, stored.priced]);
    const chat = await list("?context.feature=chat&billable_customer_id=globex");
    expect(chat.records.map((r: { model_tier: string | null }) => r.model_tier)).toEqual(["batch"]);
    const january = await list("?from=2026-01-01&to=2026-02-01");
    expect(january.records.map((r: { received_at: string }) => r.received_at)).toEqual(["2026-01-15T10:00:00.000Z"]);
    expect((await list("?provider=xai")).records).toEqual([]);
  });

  it("pages with limit and next_page_token, each record once, the token absent on the last page", async () => {
    const everything = idsOf(await list());
    const seen: string[] = [];
    let query = "?limit=3";
    for (let pages = 0; pages < 10; pages++) {
      const body = await list(query);
      seen.push(...idsOf(body));
      if (!body.next_page_token) break;
      expect(body.records).toHaveLength(3);
      query = `?limit=3&page_token=${encodeURIComponent(body.next_page_token)}`;
    }
    expect(seen).toEqual(everything);
    // Filters page too, and a token carries the range of its first page.
    const first = await list("?billable_customer_id=acme&limit=2&from=2026-01-01");
    expect(first.records).toHaveLength(2);
    const rest = await list(
      `?billable_customer_id=acme&limit=2&page_token=${encodeURIComponent(first.next_page_token)}`,
    );
    expect(rest.records.map((r: { received_at: string }) => r.received_at)).toEqual([
      minutesAgo(300, started),
      "2026-01-15T10:00:00.000Z",
    ]);
    expect(rest.next_page_token).toBeUndefined();
  });

  it("takes a limit of up to 1,000", async () => {
    const body = await list("?limit=1000");
    expect(body.records).toHaveLength(7);
    expect(body.next_page_token).toBeUndefined();
  });

  it("ends a page early, with a token, once its records reach the page's bytes", async () => {
    const org = await seedOrganization();
    // 24 records of about 200 KB each: more than a page may hold, far fewer than its limit.
    const large = "x".repeat(200_000);
    const seeds = Array.from({ length: 24 }, (_, i) => ({ received_at: minutesAgo(10 + i), context: { large } }));
    // One commit each: a batch of them would pass the size of one request.
    for (const seed of seeds) await seedUsage(firestore(), org.organizationId, [], [seed]);
    const get = async (query: string) =>
      (
        await fetch(`${fixture.gateway.baseUrl}/usage/records${query}`, { headers: { "x-api-key": org.readKey } })
      ).json();
    const first = await get("?limit=100");
    expect(first.records.length).toBeGreaterThan(10);
    expect(first.records.length).toBeLessThan(24);
    expect(Buffer.byteLength(JSON.stringify(first.records))).toBeLessThanOrEqual(MAX_PAGE_BYTES);
    const rest = await get(`?limit=100&page_token=${encodeURIComponent(first.next_page_token)}`);
    expect(rest.next_page_token).toBeUndefined();
    expect(new Set([...idsOf(first), ...idsOf(rest)]).size).toBe(24);
  });
});

describe("GET /usage/records/{message_id}", () => {
  it("answers one record: the transaction as sent, its status, cost and line items with their rates", async () => {
    const response = await fixture.get(`/usage/records/${stored.priced}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const record = await response.json();
    const listed = (await list()).records.find((each: { message_id: string }) => each.message_id === stored.priced);
    expect(record).toEqual({ ...listed, provider_usage_raw: { prompt_tokens: 1200 } });
    expect(record.usage).toEqual([
      { type: "tokens", metrics: { input_tokens: 1200, output_tokens: 300, total_tokens: 1500 } },
    ]);
    expect(record.line_items[0]).toMatchObject({
      usage_type: "tokens",
      unit: expect.any(String),
      unit_price_usd: expect.stringMatching(/^\d+(\.\d+)?$/),
      unit_price_per: expect.any(Number),
    });
  });

  it("answers a duplicate with the record it repeats", async () => {
    const record = await (await fixture.get(`/usage/records/${stored.duplicate}`)).json();
    expect(record).toMatchObject({ status: "duplicate", duplicate_of: stored.priced, cost_usd: null });
  });
});
