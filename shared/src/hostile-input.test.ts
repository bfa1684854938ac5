import { describe, expect, it } from "vitest";
import { validTransaction } from "../../test/setup/fixtures.ts";
import { tooDeepPath } from "./json-depth.ts";
import { isWellFormed } from "./unicode.ts";
import { validateTransaction } from "./validate-transaction.ts";

const LONE = "\ud800";

const nested = (depth: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
};

describe("nesting depth", () => {
  it("accepts 64 levels and names the path where a 65th begins", () => {
    expect(tooDeepPath(nested(64), 64)).toBeUndefined();
    expect(tooDeepPath(nested(65), 64)).toEqual(Array(64).fill("a"));
  });

  it("walks arrays and objects without recursion, thousands deep", () => {
    const deep = JSON.parse(`${"[".repeat(10_000)}${"]".repeat(10_000)}`);
    expect(tooDeepPath({ context: { x: deep } }, 64)?.slice(0, 3)).toEqual(["context", "x", 0]);
  });
});

describe("text that is not valid Unicode", () => {
  it("tells lone surrogates from pairs", () => {
    expect(isWellFormed("a\ud83d\ude00b")).toBe(true);
    expect(isWellFormed(`a${LONE}`)).toBe(false);
    expect(isWellFormed("\udc00x")).toBe(false);
  });

  it.each([
    ["provider", { provider: LONE }],
    ["model", { model: `gpt-4o${LONE}` }],
    ["model_tier", { model_tier: LONE }],
    ["transaction_id", { transaction_id: `id${LONE}` }],
    ["context.billable_customer_id", { context: { billable_customer_id: LONE } }],
  ])("refuses it in %s as invalid_format", (field, overrides) => {
    const result = validateTransaction(validTransaction(overrides));
    expect(result.ok ? [] : result.errors.map((e) => [e.field, e.code])).toEqual([[field, "invalid_format"]]);
  });

  it("accepts it elsewhere, as sent", () => {
    const result = validateTransaction(
      validTransaction({
        context: { billable_customer_id: "c", note: LONE },
        provider_usage_raw: { [LONE]: LONE },
        usage: [{ type: "custom", metrics: { units: 1, label: LONE } }],
      }),
    );
    expect(result.ok && result.transaction.context.note).toBe(LONE);
  });
});
