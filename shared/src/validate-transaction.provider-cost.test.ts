import { describe, expect, it } from "vitest";
import { validTransaction } from "../../test/setup/fixtures.ts";
import { validateTransaction } from "./validate-transaction.ts";
import { type Errors, errorsOf } from "./validation-test-helpers.ts";

describe("provider_cost", () => {
  it.each<[unknown]>([["0"], ["0.0001234567"], ["9000"], ["9000.000000000000"], ["12.5"], [0], [0.1], [1e-7], [9000]])(
    "accepts %j and keeps it as sent",
    (cost) => {
      const result = validateTransaction(validTransaction({ provider_cost: cost }));
      expect(result.ok && result.transaction.provider_cost).toBe(cost);
    },
  );

  it.each<[string, unknown, Errors]>([
    ["an object", { usd: 1 }, [["provider_cost", "invalid_type"]]],
    ["a boolean", true, [["provider_cost", "invalid_type"]]],
    ["null", null, [["provider_cost", "invalid_type"]]],
    ["text that is no amount", "1.2 USD", [["provider_cost", "invalid_format"]]],
    ["an exponent in text", "1e-3", [["provider_cost", "invalid_format"]]],
    ["a bare point", ".5", [["provider_cost", "invalid_format"]]],
    ["an empty string", "", [["provider_cost", "invalid_format"]]],
    ["a negative amount", "-0.5", [["provider_cost", "too_small"]]],
    ["a negative number", -0.01, [["provider_cost", "too_small"]]],
    ["thirteen decimal places", "0.0000000000001", [["provider_cost", "invalid_format"]]],
    ["a float's noise", 0.1 + 0.2, [["provider_cost", "invalid_format"]]],
    ["more than 9000", "9000.000000000001", [["provider_cost", "too_large"]]],
    ["a number over 9000", 9000.5, [["provider_cost", "too_large"]]],
    ["text longer than any amount", `0.${"0".repeat(40)}`, [["provider_cost", "invalid_format"]]],
  ])("refuses %s", (_name, cost, expected) => {
    expect(errorsOf(validTransaction({ provider_cost: cost }))).toEqual(expected);
  });

  it("says what an amount is in its message", () => {
    const result = validateTransaction(validTransaction({ provider_cost: "abc" }), { root: "body" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors[0]?.message).toMatch(/^provider_cost must be a decimal amount in USD/);
  });
});
