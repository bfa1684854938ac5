import type { ReportSource } from "@usage-ingestion/reports";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reportFixture } from "../setup/reports.ts";

/** Five customers over two whole days (roll-ups) and an edge (records); costs worked out by hand below. */
const customers = ["a", "b", "c", "d", "e"];
const seeds = customers.flatMap((customer, i) => [
  { received_at: "2026-05-01T10:00:00.000Z", customer, cost_nanos: (i + 1) * 1_000 },
  { received_at: "2026-05-02T10:00:00.000Z", customer, cost_nanos: (i + 1) * 100 },
  { received_at: "2026-05-03T10:00:00.000Z", customer, cost_nanos: (i + 1) * 10 },
]);
const SETTINGS = {
  maxDocuments: 100,
  timeoutMs: 10_000,
  maxGroups: 1_000,
  groupsPerInstance: 1_000,
  atOnce: { perInstance: 4, perOrganization: 3, perKey: 2 },
};

let fixture: Awaited<ReturnType<typeof reportFixture>>;
beforeAll(async () => {
  fixture = await reportFixture([], seeds, { reportSettings: SETTINGS });
});
afterAll(() => fixture?.gateway.close());

const costs = async (query: string) => {
  const response = await fixture.get(`/usage/costs?${query}`);
  return { status: response.status, body: await response.json() };
};
const RANGE = "from=2026-05-01&to=2026-05-03T12:00:00Z&group_by=billable_customer_id";

describe("GET /usage/costs in pages", () => {
  it("answers `limit` groups, the largest first, with a token for the rest and totals over all", async () => {
    const first = await costs(`${RANGE}&limit=2`);
    expect(first.status).toBe(200);
    // e: 5,000 + 500 + 50; d: 4,000 + 400 + 40; ...; a: 1,000 + 100 + 10. All: 15 x 1,110.
    expect(first.body.groups.map((g: { cost_nanos: string }) => g.cost_nanos)).toEqual(["5550", "4440"]);
    expect(first.body.totals.cost_nanos).toBe("16650");
    expect(typeof first.body.next_page_token).toBe("string");

    const second = await costs(`group_by=billable_customer_id&limit=2&page_token=${first.body.next_page_token}`);
    expect(second.body.from).toBe(first.body.from);
    expect(second.body.to).toBe(first.body.to);
    expect(second.body.groups.map((g: { cost_nanos: string }) => g.cost_nanos)).toEqual(["3330", "2220"]);
    const third = await costs(`group_by=billable_customer_id&limit=2&page_token=${second.body.next_page_token}`);
    expect(third.body.groups.map((g: { cost_nanos: string }) => g.cost_nanos)).toEqual(["1110"]);
    expect(third.body).not.toHaveProperty("next_page_token");
    expect(third.body.totals.cost_nanos).toBe("16650");
  });

  it("leaves out next_page_token when every group fits, and CSV holds every group", async () => {
    expect((await costs(`${RANGE}&limit=5`)).body).not.toHaveProperty("next_page_token");
    const csv = await fixture.get(`/usage/costs?${RANGE}&limit=1&format=csv`);
    expect((await csv.text()).trimEnd().split("\r\n")).toHaveLength(1 + 5 + 1);
  });

  it("refuses a token of another grouping, a forged token and a limit out of bounds", async () => {
    const { body } = await costs(`${RANGE}&limit=2`);
    for (const query of [
      `group_by=model&page_token=${body.next_page_token}`,
      "page_token=bm90LWEtdG9rZW4",
      `${RANGE}&limit=10001`,
      `${RANGE}&limit=0`,
    ]) {
      const refused = await costs(query);
      expect(refused.status, query).toBe(400);
      expect(refused.body.error.code).toBe("validation_error");
    }
  });
});

describe("a report past its ceiling", () => {
  it("answers 422 report_too_large with the figures, never a 5xx", async () => {
    // Two whole days of 5 roll-up shards, then 5 records at the edge: 15 documents, over the 12 allowed.
    const small = await reportFixture([], seeds, { reportSettings: { ...SETTINGS, maxDocuments: 12 } });
    const response = await small.get(`/usage/costs?${RANGE}`).finally(() => small.gateway.close());
    const { status } = response;
    const body = await response.json();
    expect(status).toBe(422);
    expect(body.error.code).toBe("report_too_large");
    expect(body.error.message).toMatch(
      /more than 12 documents \(1[3-5] read so far\); narrow the range or the grouping\.$/,
    );
  });
});

describe("a report holding more groups than its ceiling", () => {
  it("answers 422 report_too_large naming the groups, and answers the same range grouped by less", async () => {
    // Five customers, a ceiling of four groups: by customer it is refused, by nothing it is one group.
    const narrow = await reportFixture([], seeds, { reportSettings: { ...SETTINGS, maxGroups: 4 } });
    try {
      const refused = await narrow.get(`/usage/costs?${RANGE}`);
      expect(refused.status).toBe(422);
      const body = await refused.json();
      expect(body.error.code).toBe("report_too_large");
      expect(body.error.message).toMatch(
        /more than 4 groups \(5 after \d+ documents\); narrow the range or the grouping\.$/,
      );
      const whole = await narrow.get("/usage/costs?from=2026-05-01&to=2026-05-03T12:00:00Z");
      expect(whole.status).toBe(200);
      expect((await whole.json()).totals.cost_nanos).toBe("16650");
    } finally {
      await narrow.gateway.close();
    }
  });
});

describe("reports at once", () => {
  it("answers 429 past the reports one key may run at once, and 422 when a read stalls past the time", async () => {
    let release: () => void = () => {};
    const stalled = new Promise<void>((resolve) => {
      release = resolve;
    });
    // A source whose reads never answer: the report can only end by its time limit.
    const nothing = () => ({
      [Symbol.asyncIterator]: () => ({ next: async () => ({ done: true as const, value: undefined }) }),
    });
    const stalling: ReportSource = {
      declaredDimensions: async () => [],
      costRollups: () => ({
        [Symbol.asyncIterator]: () => ({ next: () => stalled.then(() => ({ done: true, value: undefined })) }),
      }),
      costSummaries: nothing,
      summaryMarks: nothing,
      hourSummaries: nothing,
      hourPartials: nothing,
      monthSummaries: nothing,
      hourMarks: nothing,
      unpricedRollups: nothing,
      records: nothing,
    };
    const slow = await reportFixture([], [], {
      reportSource: stalling,
      reportSettings: { ...SETTINGS, timeoutMs: 1_500, atOnce: { perInstance: 4, perOrganization: 3, perKey: 1 } },
    });
    try {
      const running = slow.get("/usage/costs?from=2026-05-01&to=2026-05-03");
      await new Promise((resolve) => setTimeout(resolve, 200));
      const refused = await slow.get("/usage/costs?from=2026-05-01&to=2026-05-03");
      expect(refused.status).toBe(429);
      // Until the running report reaches its time limit (1.5 s) at the latest.
      expect(refused.headers.get("retry-after")).toMatch(/^[12]$/);
      expect((await refused.json()).error.code).toBe("rate_limited");
      const first = await running;
      expect(first.status).toBe(422);
      expect((await first.json()).error.message).toMatch(/longer than 1500 ms/);
      // Its place is given back: the next report runs (and again ends at its time limit).
      expect((await slow.get("/usage/costs?from=2026-05-01&to=2026-05-03")).status).toBe(422);
    } finally {
      release();
      await slow.gateway.close();
    }
  });
});
