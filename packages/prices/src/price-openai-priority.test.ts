import { describe, expect, it } from "vitest";
import { nanos, price, tokens, tx } from "./price-test-support.ts";

/**
 * https://openai.com/api-priority-processing/ (read 2026-11-26): rows marked "excludes long context", footnote
 * "Requests estimated at >128K prompt tokens" (GPT-5.5: $12.50 / $1.250 / $75.00); GPT-4o mini has no such mark
 * ($0.25 / $0.125 / $1.00). A priority call above 128K on a marked model has no price on the page: unpriced.
 */
const AT = new Date("2026-11-26T12:00:00Z");
const priority = (model: string, input: number) =>
  price(
    tx({
      provider: "openai",
      model,
      model_tier: "priority",
      usage: [tokens({ input_tokens: input, output_tokens: 1000 })],
    }),
    AT,
  );

describe("OpenAI priority processing and long context", () => {
  it("leaves a priority call above 128K prompt tokens unpriced where the page excludes long context", () => {
    const result = priority("gpt-5.5", 128_001);
    expect(result.status).toBe("unpriced");
    if (result.status !== "unpriced") return;
    expect(result.unpriced_reason).toContain("above 128000 prompt tokens");
    expect(result.unpriced_reason).toContain("excludes long context");
  });

  it("prices 128,000 prompt tokens at the priority row", () => {
    // 128,000 x $12.50/M + 1,000 x $75/M = 1.600 + 0.075 USD
    expect(nanos(priority("gpt-5.5", 128_000))).toBe(1_675_000_000n);
  });

  it("prices a long priority prompt where the page marks no exclusion", () => {
    // gpt-4o-mini: 128,001 x $0.25/M + 1,000 x $1/M = 32,000,250 + 1,000,000 nanos
    expect(nanos(priority("gpt-4o-mini", 128_001))).toBe(33_000_250n);
  });
});
