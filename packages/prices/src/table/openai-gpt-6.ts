import { page, type TierRule, type TokenPrices } from "./types.ts";

const MODELS = "https://developers.openai.com/api/docs/models";
const READ = "2026-11-26";
const GPT_6_2_SOL = page(`${MODELS}/gpt-6.2-sol`, READ);
const GPT_6_SOL = page("https://developers.openai.com/zh-Hans/api/docs/models/gpt-6-sol", READ);
const GPT_6_1_TERRA = page("https://developers.openai.com/zh-Hans/api/docs/models/gpt-6.1-terra", READ);
/** gpt-6.2-sol follows gpt-6.1-sol (launched 2026-09-29): no call to it can be earlier than this. */
const GPT_6_2_SOL_FROM = "2026-09-29";
/** gpt-6.1-terra came after gpt-6.1-sol too. */
const GPT_6_1_TERRA_FROM = "2026-09-29";

/**
 * GPT-6.x prices our table adds, USD per 1M tokens, from each model's own page (read 2026-11-26).
 *
 * gpt-6.2-sol: "Input $2.00, Cached input $0.10, Cache writes $2.50, Output $10.00"; "The cache write price is
 * for 30 minutes of retention" (the 12-hour write, $5, has no metric of its own in our schema); "For requests
 * with more than 272K input tokens, input and cache rates double and output costs 1.5 times the short-context
 * rate for the full request"; "Batch costs 50% of Standard rates" (the generic batch rule); the page names no
 * Flex price, so flex stays unpriced.
 *
 * gpt-6.1-terra: input $1.00, cached input $0.05, cache writes $1.25 (30-minute retention; 12 hours $2.50, no
 * metric of its own), output $5.00; above 272K input tokens the whole request at 2x input and cache and 1.5x
 * output; batch and flex 50% lower (the generic rules); fast mode 2x.
 */
export const GPT_6_TOKENS: TokenPrices[] = [
  {
    provider: "openai",
    models: ["gpt-6.1-terra"],
    effectiveFrom: GPT_6_1_TERRA_FROM,
    source: GPT_6_1_TERRA,
    rates: { input_mtok: "1", cache_read_mtok: "0.05", cache_write_mtok: "1.25", output_mtok: "5" },
    longContext: {
      above: 272_000,
      rates: { input_mtok: "2", cache_read_mtok: "0.1", cache_write_mtok: "2.5", output_mtok: "7.5" },
    },
  },
  {
    provider: "openai",
    models: ["gpt-6.2-sol"],
    effectiveFrom: GPT_6_2_SOL_FROM,
    source: GPT_6_2_SOL,
    rates: { input_mtok: "2", cache_read_mtok: "0.1", cache_write_mtok: "2.5", output_mtok: "10" },
    longContext: {
      above: 272_000,
      rates: { input_mtok: "4", cache_read_mtok: "0.2", cache_write_mtok: "5", output_mtok: "15" },
    },
  },
  {
    provider: "openai",
    models: ["gpt-6.2-sol"],
    tier: "flex",
    effectiveFrom: GPT_6_2_SOL_FROM,
    source: GPT_6_2_SOL,
    unpriced: `the gpt-6.2-sol page (${GPT_6_2_SOL}) prices Batch, Fast mode and Ultrafast but no Flex`,
  },
];

/** "Fast mode" is the renamed priority processing: clients may send either name (https://openai.com/api-fast-mode/). */
const FAST_NAMES = ["priority", "fast"] as const;

export const GPT_6_TIERS: TierRule[] = [
  // gpt-6.2-sol: "Fast mode costs twice the Standard rate for the same context length".
  // gpt-6-sol: "Batch 和 Flex 按 Standard 费率的 50% 计费。快速模式按适用费率的 2 倍计费" (fast mode 2x the applicable rate).
  ...FAST_NAMES.flatMap((tier): TierRule[] => [
    {
      provider: "openai",
      tier,
      models: ["gpt-6.2-sol"],
      effectiveFrom: GPT_6_2_SOL_FROM,
      factor: "2",
      source: GPT_6_2_SOL,
    },
    { provider: "openai", tier, models: ["gpt-6-sol"], effectiveFrom: "2026-09-22", factor: "2", source: GPT_6_SOL },
    // gpt-6.1-terra: "快速模式的价格为标准价格的 2 倍" (fast mode is twice the standard price).
    {
      provider: "openai",
      tier,
      models: ["gpt-6.1-terra"],
      effectiveFrom: GPT_6_1_TERRA_FROM,
      factor: "2",
      source: GPT_6_1_TERRA,
    },
  ]),
  // "Ultrafast costs 3 times the Standard rate through February 28, 2027, and 6 times the Standard rate starting
  // March 1, 2027".
  {
    provider: "openai",
    tier: "ultrafast",
    models: ["gpt-6.2-sol"],
    effectiveFrom: GPT_6_2_SOL_FROM,
    until: "2027-03-01T00:00:00Z",
    factor: "3",
    source: GPT_6_2_SOL,
  },
  {
    provider: "openai",
    tier: "ultrafast",
    models: ["gpt-6.2-sol"],
    effectiveFrom: "2027-03-01T00:00:00Z",
    factor: "6",
    source: GPT_6_2_SOL,
  },
];
