import { describe, expect, it } from "vitest";
import { nanos, price, tokens, tx } from "./price-test-support.ts";

/**
 * DeepSeek's weekday peak windows (https://api-docs.deepseek.com/quick_start/pricing, read 2026-11-26): what the
 * table leaves unpriced, and that one instant of a window is priced at one rate. The hand-worked prices are the
 * oracle's (test/oracle/cases/deepseek-2.ts).
 */
const usage = [tokens({ input_tokens: 1_000_000, output_tokens: 1_000 })];

describe("DeepSeek peak and off-peak", () => {
  it.each([
    ["deepseek-chat", "2026-11-25T12:00:00Z", /no price for deepseek-chat or deepseek-reasoner/],
    ["deepseek-reasoner", "2026-08-17T02:00:00Z", /no price for deepseek-chat or deepseek-reasoner/],
    // The announcing copy made every day's windows peak; later copies make weekends off-peak, undated.
    ["deepseek-v4-flash", "2026-08-22T02:00:00Z", /Saturday 2026-08-22/],
    ["deepseek-v4-pro", "2026-08-22T09:59:59Z", /Saturday 2026-08-22/],
  ])("leaves %s at %s unpriced, saying why", (model, at, reason) => {
    const result = price(tx({ provider: "deepseek", model, usage }), new Date(at));
    expect(result).toMatchObject({ status: "unpriced", unpriced_reason: expect.stringMatching(reason) });
  });

  it.each([
    // deepseek-flash, 1M cache misses + 1,000 output: $0.15 + $0.0006 off-peak, $0.3 + $0.0012 peak.
    ["2026-11-25T00:59:59Z", 150_600_000n],
    ["2026-11-25T01:00:00Z", 301_200_000n],
    ["2026-11-25T03:59:59Z", 301_200_000n],
    ["2026-11-25T04:00:00Z", 150_600_000n],
    ["2026-11-25T05:59:59Z", 150_600_000n],
    ["2026-11-25T06:00:00Z", 301_200_000n],
    ["2026-11-25T09:59:59Z", 301_200_000n],
    ["2026-11-25T10:00:00Z", 150_600_000n],
    ["2026-11-22T02:00:00Z", 150_600_000n], // Sunday
    ["2026-09-25T02:00:00Z", 150_600_000n], // Mid-Autumn Festival, a Friday
    ["2026-09-24T02:00:00Z", 301_200_000n], // the Thursday before it
  ])("prices deepseek-flash at %s", (at, expected) => {
    expect(nanos(price(tx({ provider: "deepseek", model: "deepseek-flash", usage }), new Date(at)))).toBe(expected);
  });

  it("names the page, the window, its days and the holidays it skips in each line item's source", () => {
    const result = price(
      tx({ provider: "deepseek", model: "deepseek-flash", usage }),
      new Date("2026-11-25T07:00:00Z"),
    );
    if (result.status !== "priced") throw new Error(result.unpriced_reason);
    const input = result.line_items.find((item) => item.component === "input");
    expect(input?.price_source).toMatch(/api-docs\.deepseek\.com\/quick_start\/pricing/);
    expect(input?.price_source).toMatch(/read 2026-11-26/);
    expect(input?.price_source).toMatch(/06:00-10:00 UTC Mon,Tue,Wed,Thu,Fri except 2026-09-25/);
  });
});
