import { describe, expect, it } from "vitest";
import { centsToNanos, usdNumberToNanos } from "./vendor-amounts.ts";
import { retryAfterMs } from "./vendor-http.ts";

describe("a vendor's amounts", () => {
  it("are read exactly: cents as decimal strings, USD numbers through their shortest text", () => {
    // "123.45" in USD represents $1.2345 (platform.claude.com/docs/en/api/admin/cost_report).
    expect(centsToNanos("123.45")).toBe(1_234_500_000n);
    expect(centsToNanos("0.0000001")).toBe(1n);
    expect(centsToNanos("-2.5")).toBe(-25_000_000n);
    expect(usdNumberToNanos(0.06)).toBe(60_000_000n);
    expect(usdNumberToNanos(0.1 + 0.2)).toBe(300_000_000n);
    expect(usdNumberToNanos(1e-7)).toBe(100n);
  });

  it("are refused in any other form", () => {
    expect(() => centsToNanos(12.5)).toThrow(/decimal string/);
    expect(() => centsToNanos("1,5")).toThrow(/not a decimal/);
    expect(() => usdNumberToNanos("0.06")).toThrow(/finite number/);
    expect(() => usdNumberToNanos(Number.NaN)).toThrow(/finite number/);
  });
});

describe("retry-after", () => {
  it("is seconds or an HTTP date", () => {
    expect(retryAfterMs("30")).toBe(30_000);
    expect(retryAfterMs("Sun, 29 Nov 2026 02:00:10 GMT", Date.parse("2026-11-29T02:00:00Z"))).toBe(10_000);
    expect(retryAfterMs("soon")).toBeNull();
    expect(retryAfterMs(null)).toBeNull();
  });
});
