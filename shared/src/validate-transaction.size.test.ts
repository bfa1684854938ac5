import { describe, expect, it } from "vitest";
import { validTransaction } from "../../test/setup/fixtures.ts";
import { MAX_TRANSACTION_BYTES } from "./limits.ts";
import { SIZE_CHECK_NEEDED_ABOVE_BYTES, validateTransaction } from "./validate-transaction.ts";
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

  it("still measures when the text it came from is large enough to hold an oversized transaction", () => {
    const big = validTransaction({ context: { billable_customer_id: "c", blob: "x".repeat(260 * 1024) } });
    const text = JSON.stringify(big);
    const result = validateTransaction(big, { root: "body" }, { jsonBytes: Buffer.byteLength(text) });
    expect(result.ok ? [] : result.errors.map((error) => error.code)).toEqual(["too_large"]);
  });

  it("skips measuring only where no transaction can be over the limit: numbers grow the most when rewritten", () => {
    // `1e20` is the token that grows the most when serialised again (4 bytes -> 21 digits).
    const count = Math.floor(SIZE_CHECK_NEEDED_ABOVE_BYTES / 6);
    const numbers = `[${Array(count).fill("1e20").join(",")}]`;
    const text = JSON.stringify(validTransaction({ provider_usage_raw: { n: "N" } })).replace('"N"', numbers);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(SIZE_CHECK_NEEDED_ABOVE_BYTES);
    expect(Buffer.byteLength(JSON.stringify(JSON.parse(text)))).toBeLessThan(MAX_TRANSACTION_BYTES);
    const result = validateTransaction(JSON.parse(text), { root: "body" }, { jsonBytes: Buffer.byteLength(text) });
    expect(result.ok).toBe(true);
  });
});
