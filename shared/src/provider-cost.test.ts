import { describe, expect, it } from "vitest";
import {
  picosOfXaiTicks,
  picosToUsd,
  readProviderCost,
  reportedCostPicos,
  roundedProviderCost,
} from "./provider-cost.ts";

describe("provider cost", () => {
  it.each<[string | number, bigint | string]>([
    ["0", 0n],
    ["0.0001234567", 123_456_700n],
    ["1", 1_000_000_000_000n],
    ["0.000000000001", 1n],
    ["9000", 9_000_000_000_000_000n],
    ["2.50", 2_500_000_000_000n],
    [0.1, 100_000_000_000n],
    [1e-7, 100_000n],
    [1.5e-12, "precision"],
  ])("reads %j as exact pico-USD", (value, picos) => {
    expect(readProviderCost(value)).toBe(picos);
  });

  it("writes pico-USD with twelve places", () => {
    expect(picosToUsd(123_456_700n)).toBe("0.000123456700");
    expect(picosToUsd(0n)).toBe("0.000000000000");
    expect(picosToUsd(12_345_000_000_000n)).toBe("12.345000000000");
    expect(picosToUsd(-5n)).toBe("-0.000000000005");
  });

  it("converts xAI ticks exactly: 1 tick is 1e-10 USD", () => {
    // xAI's docs: usage.cost_in_usd_ticks, "1 tick = 1e-10 USD".
    expect(picosToUsd(picosOfXaiTicks(1_234_567) as bigint)).toBe("0.000123456700");
    expect(picosOfXaiTicks(1)).toBe(100n);
    expect(picosOfXaiTicks(90_000_000_000_000)).toBe(9_000_000_000_000_000n);
    for (const bad of [-1, 1.5, "12", null, 90_000_000_000_001, Number.MAX_SAFE_INTEGER + 2]) {
      expect(picosOfXaiTicks(bad)).toBeNull();
    }
  });

  it("takes the client's provider_cost before xAI's raw ticks, and raw ticks only from xAI", () => {
    const raw = { prompt_tokens: 10, cost_in_usd_ticks: 1_234_567 };
    expect(reportedCostPicos({ provider: "xai", provider_usage_raw: raw })).toBe(123_456_700n);
    expect(reportedCostPicos({ provider: "xai", provider_usage_raw: { usage: raw } })).toBe(123_456_700n);
    expect(reportedCostPicos({ provider: "xai", provider_cost: "0.5", provider_usage_raw: raw })).toBe(
      500_000_000_000n,
    );
    expect(reportedCostPicos({ provider: "openai", provider_usage_raw: raw })).toBeNull();
    expect(reportedCostPicos({ provider: "xai", provider_usage_raw: { cost_in_usd_ticks: "12" } })).toBeNull();
    expect(reportedCostPicos({ provider: "openai" })).toBeNull();
  });
});

describe("a span's provider cost", () => {
  it.each<[unknown, bigint | null]>([
    [0.0075123, 7_512_300_000n],
    [0.30000000000000004, 300_000_000_000n],
    // Half up at the thirteenth place.
    ["0.0000000000015", 2n],
    ["0.0000000000014999", 1n],
    [1e-7, 100_000n],
    [1.5e-13, 0n],
    [9000, 9_000_000_000_000_000n],
    [9000.01, null],
    [-0.5, null],
    [Number.NaN, null],
    [Number.POSITIVE_INFINITY, null],
    ["1.2 USD", null],
    [true, null],
  ])("reads %j as %s pico-USD", (value, picos) => {
    expect(roundedProviderCost(value)).toBe(picos);
  });
});
