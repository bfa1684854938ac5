import { describe, expect, it } from "vitest";
import { nanos, price, tokens, tx } from "./price-test-support.ts";

/**
 * https://developers.openai.com/api/docs/models/gpt-6.2-sol (read 2026-11-26): input $2, output $10 per 1M tokens;
 * "Batch costs 50% of Standard rates. Fast mode costs twice the Standard rate [...] Ultrafast costs 3 times the
 * Standard rate through February 28, 2027, and 6 times the Standard rate starting March 1, 2027"; no Flex price.
 */
const call = (model: string, tier: string | undefined, at: string, input = 10_000) =>
  price(
    tx({
      provider: "openai",
      model,
      ...(tier ? { model_tier: tier } : {}),
      usage: [tokens({ input_tokens: input, output_tokens: 1000 })],
    }),
    new Date(at),
  );

describe("GPT-6.2 Sol tiers", () => {
  it("bills Ultrafast at 3x until the end of February 2027 and 6x from March 1, 2027", () => {
    // 10,000 x $2/M + 1,000 x $10/M = 0.03 USD standard
    expect(nanos(call("gpt-6.2-sol", "ultrafast", "2027-02-28T23:59:59Z"))).toBe(90_000_000n);
    expect(nanos(call("gpt-6.2-sol", "ultrafast", "2027-03-01T00:00:00Z"))).toBe(180_000_000n);
  });

  it("leaves flex unpriced: the page names no Flex price", () => {
    const result = call("gpt-6.2-sol", "flex", "2026-11-26T12:00:00Z");
    expect(result.status).toBe("unpriced");
    if (result.status === "unpriced") expect(result.unpriced_reason).toContain("no Flex");
  });

  it("prices fast and priority alike (the same tier under its old and new names)", () => {
    const fast = nanos(call("gpt-6.2-sol", "fast", "2026-11-26T12:00:00Z"));
    expect(nanos(call("gpt-6.2-sol", "priority", "2026-11-26T12:00:00Z"))).toBe(fast);
    expect(fast).toBe(60_000_000n);
  });
});

describe("Fast mode rows and the long-context threshold", () => {
  it("leaves a GPT-5.6 Terra fast call of 272,000 prompt tokens or more unpriced (threshold not read)", () => {
    const result = call("gpt-5.6-terra", "fast", "2026-11-20T12:00:00Z", 272_000);
    expect(result.status).toBe("unpriced");
    // 271,999 x $4/M + 1,000 x $24/M (https://openai.com/api-fast-mode/, newer copy)
    expect(nanos(call("gpt-5.6-terra", "fast", "2026-11-20T12:00:00Z", 271_999))).toBe(1_087_996_000n + 24_000_000n);
  });

  it("prices GPT-5.6 Sol fast at the long-context column above 272K (its model page's threshold)", () => {
    // 272,000 x $8/M + 1,000 x $40/M; 272,001 x $16/M + 1,000 x $60/M
    expect(nanos(call("gpt-5.6-sol", "fast", "2026-11-20T12:00:00Z", 272_000))).toBe(2_176_000_000n + 40_000_000n);
    expect(nanos(call("gpt-5.6-sol", "fast", "2026-11-20T12:00:00Z", 272_001))).toBe(4_352_016_000n + 60_000_000n);
  });
});
