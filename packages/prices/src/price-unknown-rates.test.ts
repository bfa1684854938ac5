import { describe, expect, it } from "vitest";
import { explainRates } from "./explain-rates.ts";
import { nanos, price, tokens, tx } from "./price-test-support.ts";

/**
 * A rate Anthropic's pages show it bills but that no copy we read states (table/providers/anthropic.json) leaves the usage
 * billed at it unpriced: never billed at the input rate it would otherwise fall back to, never zero.
 */
const AT = new Date("2026-11-20T09:00:00Z");
const anthropic = (model: string, metrics: Record<string, number>, extra: Record<string, unknown> = {}) =>
  tx({ provider: "anthropic", model, usage: [tokens(metrics)], ...extra });

describe("rates we have not read stay unpriced", () => {
  it.each<[string, string, Record<string, number>, RegExp, Record<string, unknown>?]>([
    [
      "Haiku 5.5 cache reads",
      "claude-haiku-5-5",
      { input_tokens: 1000, cache_read_input_tokens: 5000, output_tokens: 10 },
      /^no cache read price for anthropic model "claude-haiku-5-5": Claude Haiku 5\.5's cache-read price/,
    ],
    [
      "Haiku 5.5 cache reads in a batch",
      "claude-haiku-5-5",
      { input_tokens: 1000, cache_read_input_tokens: 5000, output_tokens: 10 },
      /cache-read price/,
      { model_tier: "batch" },
    ],
    [
      "Haiku 5.5 one-hour writes over 100,000 prompt tokens",
      "claude-haiku-5-5",
      { input_tokens: 100000, cache_creation_input_tokens: 2000, cache_creation_1h_input_tokens: 1, output_tokens: 10 },
      /above 100000 prompt tokens \(this prompt: 102000\): .*one-hour cache-write price/,
    ],
    [
      "Fable 5.2 five-minute writes",
      "claude-fable-5-2",
      { input_tokens: 1000, cache_creation_input_tokens: 1000, output_tokens: 10 },
      /Claude Fable 5\.2's cache prices/,
    ],
    [
      "Fable 5.2 cache reads",
      "claude-fable-5-2",
      { input_tokens: 1000, cache_read_input_tokens: 1000, output_tokens: 10 },
      /Claude Fable 5\.2's cache prices/,
    ],
    [
      "Sonnet 5.5 cache reads after the reported change",
      "claude-sonnet-5-5",
      { input_tokens: 1000, cache_read_input_tokens: 1000, output_tokens: 10 },
      /changed on 2026-10-07/,
    ],
    [
      "Opus 4.8 fast mode cache reads",
      "claude-opus-4-8",
      { input_tokens: 1000, cache_read_input_tokens: 1000, output_tokens: 10 },
      /fast mode's cache prices for claude-opus-4-8/,
      { model_tier: "fast" },
    ],
    [
      "Opus 5.5 fast mode, at a price no page we read states",
      "claude-opus-5-5",
      { input_tokens: 1000, output_tokens: 10 },
      /^no price for model_tier "fast" of anthropic model "claude-opus-5-5" .*standard, batch, fast/,
      { model_tier: "fast" },
    ],
    [
      "fast mode, whose price no page we read states",
      "claude-mythos-5-1",
      { input_tokens: 1000, output_tokens: 10 },
      /^no price for model_tier "fast" of anthropic model "claude-mythos-5-1"/,
      { model_tier: "fast" },
    ],
    [
      "Mythos 5.2, named on the fast-mode page with no price",
      "claude-mythos-5-2",
      { input_tokens: 1000, output_tokens: 10 },
      /^unknown_model: /,
    ],
  ])("%s", (_what, model, metrics, reason, extra = {}) => {
    const result = price(anthropic(model, metrics, extra), AT);
    expect(result.status).toBe("unpriced");
    if (result.status === "unpriced") expect(result.unpriced_reason).toMatch(reason);
  });

  it.each<[string, string, RegExp]>([
    ["claude-opus-4-7", "2026-07-24T00:00:00Z", /^no price for model_tier "fast" of anthropic model "claude-opus-4-7"/],
    ["claude-opus-4-6", "2026-02-17T07:59:59Z", /launch discount until 11:59 pm PT on 2026-02-16/],
  ])("%s fast mode at %s is unpriced", (model, at, reason) => {
    const result = price(
      anthropic(model, { input_tokens: 1000, output_tokens: 10 }, { model_tier: "fast" }),
      new Date(at),
    );
    expect(result.status).toBe("unpriced");
    if (result.status === "unpriced") expect(result.unpriced_reason).toMatch(reason);
  });

  it("prices the same models when the usage needs only rates we have read", () => {
    // Haiku 5.5, one-hour writes in the lower band: 1 x $0.20/M = 200 nanos; 98,999 x $0.10/M = 9,899,900; 1,000
    // (5m) x $0.125/M = 125,000; output 2 x $0.50/M = 1,000; total 10,026,100 nanos. Sonnet 5.5 cache reads before
    // 2026-10-07: 1 x $2/M = 2,000; 1,000 x $0.20/M = 200,000; output 1 x $10/M = 10,000; total 212,000 nanos.
    const lower = { input_tokens: 98999, cache_creation_input_tokens: 1001, cache_creation_1h_input_tokens: 1 };
    expect(nanos(price(anthropic("claude-haiku-5-5", { ...lower, output_tokens: 2 }), AT))).toBe(10_026_100n);
    const before = new Date("2026-10-06T23:59:59Z");
    const reads = anthropic("claude-sonnet-5-5", { input_tokens: 1, cache_read_input_tokens: 1000, output_tokens: 1 });
    expect(nanos(price(reads, before))).toBe(212_000n);
  });

  it("pricing explain names each rate we have not read", () => {
    const explained = explainRates("anthropic", "claude-haiku-5-5", AT);
    if (!explained.ok) throw new Error(explained.reason);
    expect(explained.lines.join("\n")).toMatch(/cache_read_mtok +unpriced, because Claude Haiku 5\.5's cache-read/);
    expect(explained.lines.join("\n")).toMatch(/cache_write_1h_mtok +unpriced above 100000 prompt tokens/);
  });
});
