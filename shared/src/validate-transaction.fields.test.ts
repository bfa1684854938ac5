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

describe("control and bidirectional formatting characters in identifiers (decisions.md)", () => {
  const refused = ["\u0000", "\t", "\n", "\u001B", "\u007F", "\u0085", "\u009F", "\u061C", "\u200E", "\u200F"];
  const bidi = ["\u202A", "\u202B", "\u202C", "\u202D", "\u202E", "\u2066", "\u2067", "\u2068", "\u2069"];

  it.each([...refused, ...bidi].map((char) => [`U+${char.codePointAt(0)?.toString(16).padStart(4, "0")}`, char]))(
    "refuses %s in model, model_tier, transaction_id and billable_customer_id, invalid_format at each",
    (_name, char) => {
      const text = `gpt${char}4o`;
      expect(
        errorsOf(
          validTransaction({
            model: text,
            model_tier: text,
            transaction_id: text,
            context: { billable_customer_id: text },
          }),
        ),
      ).toEqual([
        ["model", "invalid_format"],
        ["model_tier", "invalid_format"],
        ["context.billable_customer_id", "invalid_format"],
        ["transaction_id", "invalid_format"],
      ]);
    },
  );

  it("refuses them in a declared dimension's value, and takes them in other context keys", () => {
    const transaction = validTransaction({ context: { billable_customer_id: "c", feature: "a\u202Eb", note: "x\ty" } });
    const judged = validateTransaction(transaction, { root: "body" }, { dimensions: ["feature"] });
    expect(judged.ok ? [] : judged.errors.map((e) => [e.field, e.code])).toEqual([
      ["context.feature", "invalid_format"],
    ]);
    expect(
      validateTransaction(
        validTransaction({ context: { billable_customer_id: "c", note: "x\ty" } }),
        { root: "body" },
        { dimensions: ["feature"] },
      ).ok,
    ).toBe(true);
  });

  it("takes other text, right-to-left scripts and emoji included", () => {
    expect(errorsOf(validTransaction({ model: "نموذج-٤", context: { billable_customer_id: "café 👩‍💻" } }))).toEqual(
      [],
    );
  });
});
