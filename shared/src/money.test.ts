import { describe, expect, it } from "vitest";
import { decimal, dividePerUnits, formatDecimal, multiply, nanosToUsd, toNanos } from "./money.ts";

describe("money", () => {
  it.each<[string | number, string]>([
    ["2.5", "2.5"],
    [0.1, "0.1"],
    [1e-7, "0.0000001"],
    ["1.5e3", "1500"],
    ["0.000", "0"],
    [1234567890123, "1234567890123"],
  ])("parses %s exactly", (input, shown) => {
    expect(formatDecimal(decimal(input))).toBe(shown);
  });

  it("refuses what is not a non-negative decimal", () => {
    expect(() => decimal("-1")).toThrow(RangeError);
    expect(() => decimal("abc")).toThrow(RangeError);
    expect(() => decimal(Number.NaN)).toThrow(RangeError);
  });

  it("prices without float error: 0.1 + 0.2 style products stay exact", () => {
    // 3 tokens at $0.1/Mtok is 0.3 micro-USD = 300 nanos; in floats 3 * 0.1 is 0.30000000000000004.
    expect(toNanos(multiply(decimal(3), dividePerUnits(decimal("0.1"), 1_000_000)))).toBe(300n);
    expect(toNanos(multiply(decimal(7), dividePerUnits(decimal("0.035"), 1_000_000)))).toBe(245n);
    expect(nanosToUsd(toNanos(multiply(decimal(3_000), dividePerUnits(decimal("0.1"), 1_000_000))))).toBe(
      "0.000300000",
    );
  });

  it("rounds half up to whole nanos", () => {
    expect(toNanos(decimal("0.0000000015"))).toBe(2n);
    expect(toNanos(decimal("0.0000000014999"))).toBe(1n);
    expect(toNanos(decimal("0.0000000005"))).toBe(1n);
    expect(toNanos(decimal("0.0000000004"))).toBe(0n);
  });

  it("prints nanos as a nine-place decimal string", () => {
    expect(nanosToUsd(3_500_000n)).toBe("0.003500000");
    expect(nanosToUsd(12_000_000_001n)).toBe("12.000000001");
    expect(nanosToUsd(0n)).toBe("0.000000000");
  });
});
