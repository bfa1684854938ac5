import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validTransaction } from "../setup/fixtures.ts";
import { reportFixture } from "../setup/reports.ts";

let fixture: Awaited<ReturnType<typeof reportFixture>>;
beforeAll(async () => {
  fixture = await reportFixture(["feature", "team"], [{ received_at: "2026-03-01T08:00:00.000Z" }]);
});
afterAll(() => fixture.gateway.close());

const errorOf = async (query: string) => {
  const response = await fixture.get(`/usage/costs?${query}`);
  expect(response.status).toBe(400);
  const body = await response.json();
  expect(body.error.code).toBe("validation_error");
  return body.error;
};

describe("key scopes", () => {
  it("answers 401 to an ingest key on the reports, as to an invalid key", async () => {
    for (const path of ["/usage/costs", "/usage/unpriced"]) {
      const response = await fixture.get(path, fixture.apiKey);
      expect(response.status).toBe(401);
      expect((await response.json()).error.code).toBe("unauthorized");
      expect((await fixture.get(path, "usk_not-a-key")).status).toBe(401);
    }
  });

  it("answers 401 to a read key that sends usage", async () => {
    const response = await fixture.gateway.post(validTransaction(), { "x-api-key": fixture.readKey });
    expect(response.status).toBe(401);
    expect((await response.json()).error.code).toBe("unauthorized");
    expect((await fixture.gateway.post(validTransaction(), { "x-api-key": fixture.apiKey })).status).toBe(202);
  });
});

describe("report parameters", () => {
  it("names the bad parameter in the field of a 400", async () => {
    expect((await errorOf("from=yesterday")).details).toEqual([
      expect.objectContaining({ field: "from", code: "invalid_format" }),
    ]);
    expect((await errorOf("from=2026-02-30")).details[0].field).toBe("from");
    expect((await errorOf("from=2026-03-02&to=2026-03-01")).details).toEqual([
      expect.objectContaining({ field: "to", code: "invalid_value" }),
    ]);
    expect((await errorOf("group_by=colour")).details[0]).toMatchObject({ field: "group_by", code: "invalid_value" });
    expect((await errorOf("provider=acme-ai")).details[0]).toMatchObject({ field: "provider", code: "invalid_value" });
    expect((await errorOf("format=xml")).details[0].field).toBe("format");
    expect((await errorOf("provder=openai")).details[0].field).toBe("provder");
    expect((await errorOf("model=a&model=b")).details[0]).toMatchObject({ field: "model", code: "invalid_type" });
    expect((await errorOf("from=2024-01-01&to=2026-01-01")).details[0]).toMatchObject({
      field: "to",
      code: "too_large",
    });
  });

  it("lists the declared dimensions when an undeclared one is asked for", async () => {
    const grouped = await errorOf("group_by=context.region");
    expect(grouped.details[0].field).toBe("group_by");
    expect(grouped.message).toContain("context.feature, context.team");
    const filtered = await errorOf("context.region=eu");
    expect(filtered.details[0].field).toBe("context.region");
    expect(filtered.message).toContain("context.feature, context.team");
  });

  it("answers 405 to other methods on the report routes", async () => {
    const response = await fetch(`${fixture.gateway.baseUrl}/usage/costs`, { method: "POST" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET");
  });
});
