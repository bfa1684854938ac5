import { describe, expect, it } from "vitest";
import type { PlatformPricing } from "./choose-rate-card.ts";
import type { PlatformPrice } from "./platform-pricing.ts";
import { price, tokens, tx } from "./price-test-support.ts";
import { priceAt } from "./price-usage.ts";

const AT = new Date("2026-11-24T12:00:00Z");
const entry = (model: string, fields: Partial<PlatformPrice> = {}): PlatformPrice => ({
  provider: "openai",
  model,
  effective_from: "2026-11-20T00:00:00Z",
  source_url: "https://vendor.example/pricing",
  input_mtok: "1",
  output_mtok: "4",
  ...fields,
});
const list = (...prices: PlatformPrice[]): PlatformPricing => ({ prices, updatedAt: "2026-11-20T00:00:00Z" });
const call = (model: string, model_tier?: string) =>
  tx({
    provider: "openai",
    model,
    ...(model_tier ? { model_tier } : {}),
    usage: [tokens({ input_tokens: 1000, output_tokens: 1000 })],
  });
const priceWith = (transaction: ReturnType<typeof call>, platform: PlatformPricing, at = AT) =>
  priceAt(transaction, at, null, platform).pricing;

describe("the platform price list", () => {
  // 1000 x $1/M + 1000 x $4/M = 1000000 + 4000000 nanos.
  it("prices a model nothing else knows, in the vendor's forms, from its effective_from", () => {
    const platform = list(entry("gpt-launch"));
    expect(price(call("gpt-launch"), AT)).toMatchObject({ status: "unpriced" });
    for (const id of ["gpt-launch", "GPT-Launch", "gpt-launch-2026-11-20"]) {
      expect(priceWith(call(id), platform)).toMatchObject({ status: "priced", cost_nanos: 5_000_000n });
    }
    expect(priceWith(call("gpt-launch"), platform, new Date("2026-11-19T23:59:59Z"))).toMatchObject({
      status: "unpriced",
    });
  });

  it("never prices a longer id as the entry's model", () => {
    const platform = list(entry("gpt-launch"));
    for (const id of ["gpt-launch-pro", "gpt-launch-5", "gpt-launch.5", "gpt-launch-mini-2026-11-20"]) {
      const result = priceWith(call(id), platform);
      expect(result.status === "unpriced" ? result.unpriced_reason : "priced").toMatch(/^unknown_model: /);
    }
  });

  it("wins over our table and the catalog, and the newest entry in effect wins", () => {
    // gpt-4o elsewhere: $2.50 / $10 (page); here $1 / $4, then $2 / $8 from 2026-11-22.
    const platform = list(
      entry("gpt-4o"),
      entry("gpt-4o", { effective_from: "2026-11-22T00:00:00Z", input_mtok: "2", output_mtok: "8" }),
    );
    expect(priceWith(call("gpt-4o"), platform, new Date("2026-11-21T00:00:00Z"))).toMatchObject({
      cost_nanos: 5_000_000n,
    });
    expect(priceWith(call("gpt-4o"), platform)).toMatchObject({ cost_nanos: 10_000_000n });
    // Without the list: 1000 x $2.50/M + 1000 x $10/M = 12500000 nanos.
    expect(price(call("gpt-4o"), AT)).toMatchObject({ cost_nanos: 12_500_000n });
  });

  it("matches the tier as written by the vendor's spelling, and standard as none", () => {
    const platform = list(
      entry("gpt-launch"),
      entry("gpt-launch", { model_tier: "Priority", input_mtok: "2", output_mtok: "8" }),
    );
    expect(priceWith(call("gpt-launch", "standard"), platform)).toMatchObject({ cost_nanos: 5_000_000n });
    expect(priceWith(call("gpt-launch", "priority"), platform)).toMatchObject({ cost_nanos: 10_000_000n });
    expect(priceWith(call("gpt-launch", "batch"), platform)).toMatchObject({ status: "unpriced" });
  });
});
