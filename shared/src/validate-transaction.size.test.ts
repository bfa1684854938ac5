import { describe, expect, it } from "vitest";
import { validTransaction } from "../../test/setup/fixtures.ts";
import { validateTransaction } from "./validate-transaction.ts";
import { errorsOf } from "./validation-test-helpers.ts";

describe("transaction size", () => {
  it("refuses a transaction over 256 KiB at the field that makes it large", () => {
    const big = validTransaction({ context: { billable_customer_id: "c", blob: "x".repeat(260 * 1024) } });
    expect(errorsOf(big)).toEqual([["context", "too_large"]]);
  });

  it("refuses at the transaction when no one field makes it large", () => {
    const half = "x".repeat(130 * 1024);
    const big = validTransaction({
      context: { billable_customer_id: "c", blob: half },
      provider_usage_raw: { blob: half },
    });
    expect(errorsOf(big)).toEqual([["body", "too_large"]]);
    const result = validateTransaction(big, { prefix: "transactions.4" });
    if (result.ok) throw new Error("expected a failure");
    expect(result.errors[0]?.field).toBe("transactions.4");
  });
});
