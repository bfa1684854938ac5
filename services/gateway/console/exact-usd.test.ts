import { describe, expect, it } from "vitest";
import { decimalOf, exactUsd, nanosOf, percentOf, signedUsd } from "./exact-usd.ts";

describe("exactUsd", () => {
  it("shows cents where cents suffice and every further digit where they do not", () => {
    expect(exactUsd("10.350000000")).toBe("$10.35");
    expect(exactUsd("0.006000000")).toBe("$0.006");
    expect(exactUsd("0.002469134")).toBe("$0.002469134");
    expect(exactUsd("1234567.5")).toBe("$1,234,567.50");
    expect(exactUsd("0.000000000")).toBe("$0.00");
    expect(exactUsd("000.000000001")).toBe("$0.000000001");
    expect(exactUsd("-0.5")).toBe("-$0.50");
    expect(exactUsd("-0.000")).toBe("$0.00");
  });

  it("leaves what is not a decimal as it came", () => {
    expect(exactUsd("1e3")).toBe("1e3");
    expect(exactUsd(null)).toBe("");
  });
});

describe("nano-USD", () => {
  it("reads the API's decimals exactly and writes them back", () => {
    expect(nanosOf("0.900000000")).toBe(900_000_000n);
    expect(nanosOf("-0.075000000")).toBe(-75_000_000n);
    expect(nanosOf("12")).toBe(12_000_000_000n);
    expect(nanosOf("0.0000000001")).toBeNull();
    expect(nanosOf("1e3")).toBeNull();
    expect(decimalOf(975_000_000n)).toBe("0.975000000");
    expect(decimalOf(-75_000_000n)).toBe("-0.075000000");
    expect(decimalOf(0n)).toBe("0.000000000");
  });

  it("signs a difference and its share of the vendor's total", () => {
    expect(signedUsd("0.075000000")).toBe("+$0.075");
    expect(signedUsd("-0.500000000")).toBe("-$0.50");
    expect(signedUsd("0.000000000")).toBe("$0.00");
    // $0.075 of $0.975 is 7.6923...%; $0.085 of $1 is 8.5%.
    expect(percentOf(75_000_000n, 975_000_000n)).toBe("+7.69%");
    expect(percentOf(-85_000_000n, 1_000_000_000n)).toBe("-8.50%");
    expect(percentOf(1n, 1_000_000_000_000n)).toBe("0.00%");
    expect(percentOf(5n, 0n)).toBeNull();
  });
});
