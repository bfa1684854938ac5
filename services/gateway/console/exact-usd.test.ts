import { describe, expect, it } from "vitest";
import { exactUsd } from "./exact-usd.ts";

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
