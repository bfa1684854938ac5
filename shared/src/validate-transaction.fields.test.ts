import { describe, expect, it } from "vitest";
import { validTransaction } from "../../test/setup/fixtures.ts";
import { PROVIDERS } from "./providers.ts";
import { validateTransaction } from "./validate-transaction.ts";
import { type Errors, errorsOf, tokens } from "./validation-test-helpers.ts";

describe("transaction fields", () => {
  it("accepts a minimal valid transaction", () => {
    expect(errorsOf(validTransaction())).toEqual([]);
  });

  it.each(PROVIDERS)("accepts the provider %s", (provider) => {
    expect(errorsOf(validTransaction({ provider }))).toEqual([]);
  });

  it.each<[string, unknown, Errors]>([
    ["an unknown provider", { provider: "OpenAI" }, [["provider", "invalid_value"]]],
    ["a numeric provider", { provider: 7 }, [["provider", "invalid_type"]]],
    ["an empty model", { model: "" }, [["model", "too_small"]]],
    ["a numeric model", { model: 4 }, [["model", "invalid_type"]]],
    ["a numeric model_tier", { model_tier: 1 }, [["model_tier", "invalid_type"]]],
    ["an empty usage", { usage: [] }, [["usage", "too_small"]]],
    ["a usage object", { usage: {} }, [["usage", "invalid_type"]]],
    ["a context array", { context: [] }, [["context", "invalid_type"]]],
    [
      "a context without billable_customer_id",
      { context: { team: "a" } },
      [["context.billable_customer_id", "required"]],
    ],
    [
      "an empty billable_customer_id",
      { context: { billable_customer_id: "" } },
      [["context.billable_customer_id", "too_small"]],
    ],
    ["a provider_usage_raw array", { provider_usage_raw: [1] }, [["provider_usage_raw", "invalid_type"]]],
    ["a provider_usage_raw string", { provider_usage_raw: "x" }, [["provider_usage_raw", "invalid_type"]]],
    ["an empty transaction_id", { transaction_id: "" }, [["transaction_id", "too_small"]]],
    ["a transaction_id of 256 characters", { transaction_id: "x".repeat(256) }, [["transaction_id", "too_large"]]],
    ["a numeric transaction_id", { transaction_id: 42 }, [["transaction_id", "invalid_type"]]],
  ])("rejects %s", (_name, overrides, expected) => {
    expect(errorsOf(validTransaction(overrides as Record<string, unknown>))).toEqual(expected);
  });

  it("keeps a transaction_id of 1 to 255 characters", () => {
    for (const id of ["a", "x".repeat(255), "chatcmpl-AbC/123"]) {
      const result = validateTransaction(validTransaction({ transaction_id: id }));
      expect(result.ok && result.transaction.transaction_id).toBe(id);
    }
  });

  it("reports each missing required field", () => {
    expect(errorsOf({})).toEqual([
      ["provider", "required"],
      ["model", "required"],
      ["usage", "required"],
      ["context", "required"],
    ]);
  });

  it("names the whole body when the transaction is not an object", () => {
    expect(errorsOf([validTransaction()])).toEqual([["body", "invalid_type"]]);
  });

  it("drops unknown top-level fields and keeps additional context and metrics properties", () => {
    const result = validateTransaction({
      ...validTransaction({ context: { billable_customer_id: "c", team: "ml", nested: { a: [1] } } }),
      usage: [tokens({ vendor_extra: "kept" })],
      surprise: true,
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.transaction).not.toHaveProperty("surprise");
    expect(result.transaction.context).toEqual({ billable_customer_id: "c", team: "ml", nested: { a: [1] } });
    expect(result.transaction.usage[0]?.metrics).toHaveProperty("vendor_extra", "kept");
  });
});
