import { describe, expect, it } from "vitest";
import { validTransaction } from "../../test/setup/fixtures.ts";
import { parseQueueMessage } from "./schemas/queue-message.ts";
import { validateTransaction } from "./validate-transaction.ts";
import { errorsOf } from "./validation-test-helpers.ts";

// "é" is 2 bytes in UTF-8, "😀" 4: the bounds count bytes, not characters.
const bytes256 = "é".repeat(128);
const bytes258 = "é".repeat(129);
const context = (extra: Record<string, unknown>) => ({ billable_customer_id: "c", ...extra });
const keys = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, i]));

describe("bounds on identifiers: at most 256 bytes in UTF-8", () => {
  for (const field of ["model", "model_tier", "transaction_id"] as const) {
    it(`${field}: 256 bytes pass, 258 are too_large at the field`, () => {
      expect(errorsOf(validTransaction({ [field]: bytes256 }))).toEqual([]);
      expect(errorsOf(validTransaction({ [field]: bytes258 }))).toEqual([[field, "too_large"]]);
    });
  }

  it("context.billable_customer_id: 256 bytes pass, 257 are too_large at the field", () => {
    expect(errorsOf(validTransaction({ context: context({ billable_customer_id: "😀".repeat(64) }) }))).toEqual([]);
    const long = validTransaction({ context: context({ billable_customer_id: `${"😀".repeat(64)}x` }) });
    expect(errorsOf(long)).toEqual([["context.billable_customer_id", "too_large"]]);
  });

  it("says the bound in the message, and counts a 250 KB model as too_large, never a 202", () => {
    const result = validateTransaction(validTransaction({ model: "m".repeat(250_000) }), { root: "body" });
    expect(result.ok ? [] : result.errors).toEqual([
      { field: "model", code: "too_large", message: "model must be at most 256 bytes in UTF-8" },
    ]);
  });
});

describe("declared dimensions: values at most 256 bytes as their roll-up cell holds them", () => {
  const validate = (context: Record<string, unknown>) => {
    const result = validateTransaction(
      validTransaction({ context }),
      { prefix: "transactions.2" },
      {
        dimensions: ["feature", "plan"],
      },
    );
    return result.ok ? [] : result.errors.map((error) => [error.field, error.code]);
  };

  it("refuses a declared dimension's long value at its field, text or JSON", () => {
    expect(validate(context({ feature: bytes256, plan: { tier: "x" } }))).toEqual([]);
    expect(validate(context({ feature: bytes258 }))).toEqual([["transactions.2.context.feature", "too_large"]]);
    // A value that is not text is held as its JSON: ["aaa…"] is the text plus 4 bytes.
    expect(validate(context({ plan: ["a".repeat(253)] }))).toEqual([["transactions.2.context.plan", "too_large"]]);
  });

  it("leaves undeclared keys to the transaction's size limit", () => {
    expect(validate(context({ note: "x".repeat(10_000) }))).toEqual([]);
  });
});

describe("bounds on context: at most 64 keys, names at most 128 bytes", () => {
  it("64 keys pass, 65 are too_large at context", () => {
    expect(errorsOf(validTransaction({ context: context(keys(63)) }))).toEqual([]);
    expect(errorsOf(validTransaction({ context: context(keys(64)) }))).toEqual([["context", "too_large"]]);
  });

  it("counts keys Valibot leaves out of its output too, as they are stored", () => {
    const text = JSON.stringify(validTransaction({ context: context(keys(63)) })).replace(
      '"k0":0',
      '"k0":0,"__proto__":{"x":1}',
    );
    expect(errorsOf(JSON.parse(text))).toEqual([["context", "too_large"]]);
  });

  it("a key name of 128 bytes passes, 129 are too_large at context", () => {
    expect(errorsOf(validTransaction({ context: context({ ["é".repeat(64)]: 1 }) }))).toEqual([]);
    expect(errorsOf(validTransaction({ context: context({ [`${"é".repeat(64)}x`]: 1 }) }))).toEqual([
      ["context", "too_large"],
    ]);
  });

  it("21,000 keys are refused before they reach a record Firestore would refuse to index", () => {
    expect(errorsOf(validTransaction({ context: context(keys(21_000)) }))).toEqual([["context", "too_large"]]);
  });
});

describe("messages accepted before the bounds", () => {
  it("are still read by the worker, so what was accepted is billed", () => {
    const message = {
      schema_version: 1,
      organization_id: "org",
      request_id: "6f1c9a52-3c1e-4c3b-9a47-1f2d3e4c5b6a",
      transaction_index: 0,
      received_at: "2026-11-01T00:00:00.000Z",
      transaction: validTransaction({ model: bytes258, context: context({ ...keys(70), [bytes258]: 1 }) }),
    };
    const parsed = parseQueueMessage(message);
    expect(parsed.success).toBe(true);
  });
});
