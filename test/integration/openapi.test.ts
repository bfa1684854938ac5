import { readFileSync } from "node:fs";
import { createBudget } from "@usage-ingestion/budgets";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPENAPI_FILE, openApiText } from "../../scripts/docs/openapi.ts";
import { bulk, validTransaction } from "../setup/fixtures.ts";
import { firestore } from "../setup/harness.ts";
import { reportFixture } from "../setup/reports.ts";

type Operation = { responses: Record<string, { content?: Record<string, { schema: object }> }> };
type Document = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, object> } };

let fixture: Awaited<ReturnType<typeof reportFixture>>;
let document: Document;
const ajv = new Ajv2020({ strict: false, allErrors: true });

beforeAll(async () => {
  fixture = await reportFixture(
    ["feature"],
    [
      { received_at: "2026-03-01T08:00:00.000Z", context: { feature: "chat" } },
      { received_at: "2026-03-01T09:00:00.000Z", status: "unpriced" },
    ],
  );
  document = await (await fetch(`${fixture.gateway.baseUrl}/openapi.json`)).json();
  ajv.addSchema({ $id: "openapi", components: document.components }, "openapi");
});
afterAll(() => fixture.gateway.close());

/** Checks a real response against the schema the document gives for its path, method and status. */
async function conforms(path: string, method: string, response: Response) {
  const operation = document.paths[path]?.[method];
  const content = operation?.responses[String(response.status)]?.content?.["application/json"];
  expect(content, `${method} ${path} ${response.status} is documented`).toBeDefined();
  const schema = JSON.parse(JSON.stringify(content?.schema).replaceAll('"#/components', '"openapi#/components'));
  const validate = ajv.compile(schema);
  const body = await response.json();
  expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
}

describe("GET /openapi.json", () => {
  it("is OpenAPI 3.1 and equals the committed docs/openapi.json", () => {
    expect(document).toMatchObject({ openapi: "3.1.0" });
    expect(JSON.parse(readFileSync(OPENAPI_FILE, "utf8"))).toEqual(JSON.parse(openApiText()));
    expect(JSON.parse(openApiText())).toEqual(document);
  });

  it("describes the real ingest responses: 202, 207, 400, 401", async () => {
    const ingest = { "x-api-key": fixture.apiKey };
    await conforms("/usage/transactions", "post", await fixture.gateway.post(validTransaction(), ingest));
    const partial = await fixture.gateway.post(bulk(validTransaction(), { model: "" }), ingest);
    expect(partial.status).toBe(207);
    await conforms("/usage/transactions", "post", partial);
    const invalid = await fixture.gateway.post(validTransaction({ usage: [] }), ingest);
    expect(invalid.status).toBe(400);
    await conforms("/usage/transactions", "post", invalid);
    const anonymous = await fixture.gateway.post(validTransaction());
    expect(anonymous.status).toBe(401);
    await conforms("/usage/transactions", "post", anonymous);
  });

  it("describes the real report responses", async () => {
    await conforms(
      "/usage/costs",
      "get",
      await fixture.get("/usage/costs?from=2026-03-01&to=2026-03-02T12:00:00Z&group_by=day,context.feature"),
    );
    await conforms("/usage/costs", "get", await fixture.get("/usage/costs?group_by=nope"));
    await conforms("/usage/costs", "get", await fixture.get("/usage/costs", fixture.apiKey));
    await conforms("/usage/unpriced", "get", await fixture.get("/usage/unpriced?from=2026-03-01&to=2026-03-02"));
  });

  it("describes the real budgets responses", async () => {
    await createBudget(firestore(), fixture.organizationId, {
      amount_usd: "5",
      period: "week",
      time_zone: "Europe/Paris",
      scope: { customer: "cust-1", dimension: { name: "feature", value: "chat" } },
    });
    await createBudget(firestore(), fixture.organizationId, { amount_usd: "0.000000001", period: "30d" });
    const answer = await fixture.get("/usage/budgets");
    expect(answer.status).toBe(200);
    await conforms("/usage/budgets", "get", answer);
    await conforms("/usage/budgets", "get", await fixture.get("/usage/budgets?custmer=x"));
    await conforms("/usage/budgets", "get", await fixture.get("/usage/budgets", fixture.apiKey));
  });

  it("describes the real records responses", async () => {
    const page = await fixture.get("/usage/records?from=2026-03-01&to=2026-03-02&limit=1");
    expect(page.status).toBe(200);
    const { records, next_page_token } = await page.clone().json();
    expect(next_page_token).toEqual(expect.any(String));
    await conforms("/usage/records", "get", page);
    await conforms("/usage/records", "get", await fixture.get("/usage/records?limit=0"));
    await conforms("/usage/records", "get", await fixture.get("/usage/records", fixture.apiKey));
    const one = await fixture.get(`/usage/records/${records[0].message_id}`);
    expect(one.status).toBe(200);
    await conforms("/usage/records/{message_id}", "get", one);
    await conforms("/usage/records/{message_id}", "get", await fixture.get("/usage/records/m-none"));
    await conforms("/usage/records/{message_id}", "get", await fixture.get(`/usage/records/${"x".repeat(300)}`));
  });

  it("validates request bodies as the gateway does", () => {
    const validate = ajv.compile({ $ref: "openapi#/components/schemas/Transaction" });
    expect(validate(validTransaction())).toBe(true);
    const noTotal = validTransaction({ usage: [{ type: "tokens", metrics: { input_tokens: 1, output_tokens: 1 } }] });
    expect(validate(noTotal)).toBe(false);
    const twice = validTransaction({ usage: [validTransaction().usage, validTransaction().usage].flat() });
    expect(validate(twice)).toBe(false);
    const report = ajv.compile({ $ref: "openapi#/components/schemas/CostReport" });
    expect(report({ from: "", to: "", group_by: [], filters: {}, groups: [], totals: { cost_nanos: 1 } })).toBe(false);
  });
});
