import { describe, expect, it } from "vitest";
import { nanos, price, tokens, tx } from "./price-test-support.ts";

/**
 * OpenAI's cache writes (decisions: "Cache writes on OpenAI") are sent as `cache_creation_input_tokens`, a
 * part of `input_tokens` as `cached_tokens` is. Rates, USD per million tokens, from the model pages:
 * - https://developers.openai.com/api/docs/models/gpt-6-astra.md (copy 2026-09-24): input $10, cached input
 *   $1, cache writes $12.50 (1.25x input), output $50; more than 272K input tokens: 2x input and cache, 1.5x
 *   output for the whole request.
 * - https://developers.openai.com/api/docs/models/gpt-4o.md (copy 2026-09-24): input $2.50, cached $1.25,
 *   output $10; no cache-write price, so writes are billed as input.
 */
const AT = new Date("2026-11-01T12:00:00Z");
const openai = (model: string, metrics: Record<string, number>) =>
  tx({ provider: "openai", model, usage: [tokens(metrics)] });

describe("OpenAI cache writes", () => {
  it("bills writes at the model's cache-write rate and only the rest of the prompt as input", () => {
    // input 10000 = 2000 cached + 3000 written + 5000 plain: 5000 x $10 + 2000 x $1 + 3000 x $12.50 + 1000 x $50
    //   = 50000000 + 2000000 + 37500000 + 50000000 nanos = 139500000
    const result = price(
      openai("gpt-6-astra", {
        input_tokens: 10000,
        cached_tokens: 2000,
        cache_creation_input_tokens: 3000,
        output_tokens: 1000,
      }),
      AT,
    );
    expect(nanos(result)).toBe(139_500_000n);
    if (result.status !== "priced") throw new Error("unpriced");
    expect(result.line_items.map((item) => [item.component, item.quantity])).toEqual([
      ["input", 5000],
      ["cache_read", 2000],
      ["cache_write", 3000],
      ["output", 1000],
    ]);
  });

  it("bills writes as input where the page has no cache-write price", () => {
    // 4000 plain + 1000 written, all at $2.50 = 12500000; output 100 x $10 = 1000000
    const result = price(
      openai("gpt-4o", { input_tokens: 5000, cache_creation_input_tokens: 1000, output_tokens: 100 }),
      AT,
    );
    expect(nanos(result)).toBe(13_500_000n);
  });

  it("chooses the long-context tier on the whole prompt, writes included", () => {
    // 272001 input tokens (> 272K): 200001 plain x $20 + 72000 written x $25 + 10 output x $75
    //   = 4000020000 + 1800000000 + 750000 nanos = 5800770000
    const result = price(
      openai("gpt-6-astra", { input_tokens: 272001, cache_creation_input_tokens: 72000, output_tokens: 10 }),
      AT,
    );
    expect(nanos(result)).toBe(5_800_770_000n);
  });

  it("leaves counts whose cached and written parts exceed the prompt unpriced, saying why", () => {
    const result = price(
      openai("gpt-6-astra", {
        input_tokens: 1000,
        cached_tokens: 600,
        cache_creation_input_tokens: 500,
        output_tokens: 1,
      }),
      AT,
    );
    expect(result).toMatchObject({ status: "unpriced" });
    if (result.status === "unpriced")
      expect(result.unpriced_reason).toMatch(/cache writes \(500\) exceed input_tokens/);
  });
});
