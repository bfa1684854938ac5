import { describe, expect, it } from "vitest";
import { nanos, price, tokens, tx } from "./price-test-support.ts";

/**
 * Corrections found by checking our prices against a second source, each worked by hand from the vendor's
 * own page (page and date read in each case) or, where no vendor page states the rate, kept unpriced.
 */
describe("Bedrock Claude Sonnet 4 and 4.5 above 200K prompt tokens", () => {
  const AT = new Date("2026-11-01T12:00:00Z");
  const ids = [
    "anthropic.claude-sonnet-4-20250514-v1:0",
    "us.anthropic.claude-sonnet-4-20250514-v1:0",
    "eu.anthropic.claude-sonnet-4-20250514-v1:0",
    "apac.anthropic.claude-sonnet-4-20250514-v1:0",
    "global.anthropic.claude-sonnet-4-20250514-v1:0",
    "anthropic.claude-sonnet-4-5-20250929-v1:0",
    "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
    "eu.anthropic.claude-sonnet-4-5-20250929-v1:0",
    "jp.anthropic.claude-sonnet-4-5-20250929-v1:0",
    "au.anthropic.claude-sonnet-4-5-20250929-v1:0",
    "global.anthropic.claude-sonnet-4-5-20250929-v1:0",
    "arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-sonnet-4-5-20250929-v1:0",
  ];
  const call = (model: string, input: number, cacheRead: number) =>
    tx({
      provider: "bedrock",
      model,
      usage: [tokens({ input_tokens: input, cache_read_input_tokens: cacheRead, output_tokens: 1000 })],
    });

  it.each(ids)("%s: a prompt of 200,001 tokens (input + cache reads) stays unpriced", (model) => {
    const result = price(call(model, 150_001, 50_000), AT);
    expect(result.status).toBe("unpriced");
    if (result.status === "unpriced") expect(result.unpriced_reason).toMatch(/above 200000 prompt tokens/);
  });

  it("prices a prompt of exactly 200,000 tokens at the regional list price", () => {
    // https://platform.claude.com/docs/en/about-claude/pricing (read 2026-11-22): Sonnet 4.5 $3 input, $0.30
    // cache reads, $15 output; "Regional endpoints include a 10% premium" (Sonnet 4.5 and later): $3.30, $0.33,
    // $16.50. 150,000 x 3,300 + 50,000 x 330 + 1,000 x 16,500 nanos = 495,000,000 + 16,500,000 + 16,500,000.
    expect(nanos(price(call("us.anthropic.claude-sonnet-4-5-20250929-v1:0", 150_000, 50_000), AT))).toBe(528_000_000n);
  });
});

describe("ids that are not DeepSeek API models", () => {
  // https://api-docs.deepseek.com/quick_start/pricing (copies read 2026-11-26): the API's models are
  // deepseek-chat, deepseek-reasoner and the V4 names; no copy prices deepseek-r1 or deepseek-v3.2.
  it.each([
    ["deepseek-r1", "2025-03-01T12:00:00Z"],
    ["deepseek-r1", "2026-11-01T12:00:00Z"],
    ["deepseek-v3.2", "2025-12-01T12:00:00Z"],
    ["DeepSeek-V3.2", "2026-11-01T12:00:00Z"],
  ])("%s at %s stays unpriced with the reason", (model, at) => {
    const result = price(
      tx({ provider: "deepseek", model, usage: [tokens({ input_tokens: 1000, output_tokens: 1000 })] }),
      new Date(at),
    );
    expect(result.status).toBe("unpriced");
    if (result.status === "unpriced") expect(result.unpriced_reason).toMatch(/not a DeepSeek API model id/);
  });
});

describe("OpenAI fine-tuned models", () => {
  const AT = new Date("2026-11-01T12:00:00Z");
  const call = (model: string, metrics: Record<string, number>) =>
    tx({ provider: "openai", model, usage: [tokens(metrics)] });

  it("never bills a fine-tuned gpt-4o's cached tokens at the full input rate", () => {
    const result = price(
      call("ft:gpt-4o-2024-08-06:acme::a1b2", { input_tokens: 1000, cached_tokens: 500, output_tokens: 10 }),
      AT,
    );
    expect(result.status).toBe("unpriced");
    if (result.status === "unpriced") expect(result.unpriced_reason).toMatch(/cache read price.*fine-tuned/);
  });

  it.each([
    "ft:gpt-4.1-2025-04-14:acme::a1b2",
    "ft:gpt-4.1-mini-2025-04-14:acme:x:a1",
    "ft:o4-mini-2025-04-16:acme::z",
  ])("%s stays unpriced with the reason, not unknown", (model) => {
    const result = price(call(model, { input_tokens: 1000, output_tokens: 10 }), AT);
    expect(result.status).toBe("unpriced");
    if (result.status === "unpriced") expect(result.unpriced_reason).toMatch(/fine-tuned gpt-4.1 and o4-mini/);
  });
});

describe("Amazon Nova 2 Lite on Bedrock", () => {
  const AT = new Date("2026-11-01T12:00:00Z");
  const call = (tier?: string) =>
    tx({
      provider: "bedrock",
      model: "us.amazon.nova-2-lite-v1:0",
      ...(tier ? { model_tier: tier } : {}),
      usage: [tokens({ input_tokens: 10_000, output_tokens: 1000 })],
    });

  it("says why a standard call is unpriced: only the flex rows were read", () => {
    const result = price(call(), AT);
    expect(result.status).toBe("unpriced");
    if (result.status === "unpriced") expect(result.unpriced_reason).toMatch(/lists only its flex rates/);
  });

  it("prices a flex call from AWS's Price List", () => {
    // AWS Price List (AmazonBedrock, us-east-1, version 20260901205051, read 2026-11-22): Nova 2 Lite flex
    // $0.000165 / $0.001375 per 1,000 tokens = $0.165 / $1.375 per 1M. 10,000 x 165 + 1,000 x 1,375 nanos.
    expect(nanos(price(call("flex"), AT))).toBe(3_025_000n);
  });
});
