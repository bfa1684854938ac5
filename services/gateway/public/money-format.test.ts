import { describe, expect, it } from "vitest";
import { formatAxisUsd, formatUsd } from "./money-format.js";

describe("formatUsd (the dashboard's money)", () => {
  it.each([
    ["0", "$0.00"],
    ["0.000000000", "$0.00"],
    ["0.004999999", "<$0.01"],
    ["0.000000001", "<$0.01"],
    ["0.005000000", "$0.01"],
    ["0.300000001", "$0.30"],
    ["10.345000000", "$10.35"],
    ["10.344999999", "$10.34"],
    ["10.350000003", "$10.35"],
    ["9.450000000", "$9.45"],
    ["0.999999999", "$1.00"],
    ["1234.5", "$1,234.50"],
    ["999.995", "$1,000.00"],
    ["1000000", "$1,000,000.00"],
    ["123456789012.995000000", "$123,456,789,013.00"],
    // 2^53 nanos is 9007199.254740992 dollars; far above it a float would have lost the cents.
    ["9007199254740993.125000001", "$9,007,199,254,740,993.13"],
  ])("%s -> %s", (decimal, shown) => {
    expect(formatUsd(decimal)).toBe(shown);
  });

  it("keeps a negative amount readable", () => {
    expect(formatUsd("-1.235")).toBe("-$1.24");
    expect(formatUsd("-0.004")).toBe("-<$0.01");
    expect(formatUsd("-0.000000000")).toBe("$0.00");
  });

  it("shows anything that is not a decimal string as it came", () => {
    expect(formatUsd("n/a")).toBe("n/a");
    expect(formatUsd("1e-9")).toBe("1e-9");
  });

  it("formats chart axis numbers as dollars", () => {
    expect(formatAxisUsd(0)).toBe("$0.00");
    expect(formatAxisUsd(1234.5)).toBe("$1,234.50");
    expect(formatAxisUsd(0.0005)).toBe("$0.0005");
  });
});
