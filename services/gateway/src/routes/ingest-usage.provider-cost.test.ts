import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../testing/gateway-harness.ts";
import { validTransaction } from "../testing/transactions.ts";

let gateway: TestGateway;
let key: Record<string, string>;
beforeAll(async () => {
  gateway = await startTestGateway();
  key = { "x-api-key": gateway.keys.organization().ingestKey };
});
afterAll(() => gateway.close());

const post = (body: unknown) => gateway.postUsage(body, key);

describe("POST /usage/transactions: provider_cost (decision 0031)", () => {
  it("answers 400 with a field error at provider_cost for an amount it does not keep", async () => {
    const response = await post(validTransaction({ provider_cost: "-0.01" }));
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.error.code).toBe("validation_error");
    expect(body.error.details).toEqual([
      { field: "provider_cost", code: "too_small", message: "provider_cost must be at least 0" },
    ]);
    expect(gateway.publisher.published).toHaveLength(0);
  });

  it("queues the valid ones of a bulk with their provider_cost as sent, naming each bad one", async () => {
    const response = await post({
      transactions: [
        validTransaction({ provider_cost: "0.0001234567" }),
        validTransaction({ provider_cost: 0.1 + 0.2 }),
        validTransaction({ provider_cost: "9000.01" }),
      ],
    });
    expect(response.status).toBe(207);
    const body = await response.json();
    expect(body.results[1].error).toMatch(/^validation failed: transactions\.1\.provider_cost \(invalid_format\)/);
    expect(body.results[2].error).toMatch(/^validation failed: transactions\.2\.provider_cost \(too_large\)/);
    expect(gateway.publisher.published.map((each) => each.message.transaction)).toEqual([
      expect.objectContaining({ provider_cost: "0.0001234567" }),
    ]);
  });
});
