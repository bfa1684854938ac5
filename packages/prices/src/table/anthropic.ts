import { page, type TokenPrices, type VendorTable } from "./types.ts";

const PRICING = page("https://platform.claude.com/docs/en/about-claude/pricing", "2026-11-22");
const BATCH = page("https://platform.claude.com/docs/zh-CN/build-with-claude/batch-processing", "2026-11-22");
/** The pricing page's "Model pricing" table as read for the models launched from June 2026. */
const PRICING_NOW = page("https://platform.claude.com/docs/en/about-claude/pricing", "2026-11-26");
/** A model's own overview page ("Pricing" under "Specifications"): where two pages disagree, this one wins. */
const overview = (model: string) =>
  page(`https://platform.claude.com/docs/zh-CN/models/${model}/overview`, "2026-11-26");

const NOT_READ = "no copy of Anthropic's own pages we read states this rate";

/**
 * Claude models launched from June 2026 that the pinned catalog lacks. Each entry's page is quoted in
 * docs/pricing.md and worked by hand in test/oracle/cases/anthropic-4.ts.
 */
const CLAUDE_5_MODELS: TokenPrices[] = [
  // Pricing page, "Model pricing": "Claude Mythos 5 (limited availability) | $10 / MTok | $12.50 / MTok | $20 /
  // MTok | $1 / MTok | $50 / MTok"; released with Claude Fable 5 on June 9, 2026 (fable-5 overview).
  {
    provider: "anthropic",
    models: ["claude-mythos-5"],
    effectiveFrom: "2026-06-09",
    source: PRICING_NOW,
    rates: {
      input_mtok: "10",
      cache_write_mtok: "12.5",
      cache_write_1h_mtok: "20",
      cache_read_mtok: "1",
      output_mtok: "50",
    },
  },
  // "Claude Mythos 5.1 (limited availability) | $10 / MTok | $12.50 / MTok | $20 / MTok | $0.25 / MTok | $50 / MTok";
  // released with Claude Fable 5.1 on September 1, 2026 (fable-5-1 overview).
  {
    provider: "anthropic",
    models: ["claude-mythos-5-1"],
    effectiveFrom: "2026-09-01",
    source: PRICING_NOW,
    rates: {
      input_mtok: "10",
      cache_write_mtok: "12.5",
      cache_write_1h_mtok: "20",
      cache_read_mtok: "0.25",
      output_mtok: "50",
    },
  },
  // sonnet-5-5 overview: "Input $2 / MTok, Output $10 / MTok, 5m cache write $2.50 / MTok, 1h cache write $4 /
  // MTok, Cache read $0.20 / MTok". The copy names no release date: 2026-09-28 is the launch date other sites
  // give (a bound, not a price).
  {
    provider: "anthropic",
    models: ["claude-sonnet-5-5"],
    effectiveFrom: "2026-09-28",
    source: overview("sonnet-5-5"),
    rates: {
      input_mtok: "2",
      cache_write_mtok: "2.5",
      cache_write_1h_mtok: "4",
      cache_read_mtok: "0.2",
      output_mtok: "10",
    },
  },
  // Other sites report a cut of Sonnet 5.5's cache reads on 2026-10-07 that no copy of Anthropic's pages we read
  // shows: from then, cache reads stay unpriced rather than risk a silent wrong rate.
  {
    provider: "anthropic",
    models: ["claude-sonnet-5-5"],
    effectiveFrom: "2026-10-07",
    source: overview("sonnet-5-5"),
    unknownRates: [
      {
        component: "cache_read_mtok",
        reason: `the cache-read price reported changed on 2026-10-07 and ${NOT_READ} since`,
      },
    ],
  },
  // haiku-5-5 overview ("Released October 7, 2026"): "Input $0.10 / MTok for prompts up to 100,000 tokens, $0.50
  // / MTok for prompts over 100,000 tokens; Output $0.50 / $2.50; 5m cache write $0.125 / $0.625; 1h cache write
  // $0.20 / MTok for prompts up to 100,000 tokens" (the rest of the card was not in the copy we read).
  {
    provider: "anthropic",
    models: ["claude-haiku-5-5"],
    effectiveFrom: "2026-10-07",
    source: overview("haiku-5-5"),
    rates: { input_mtok: "0.1", cache_write_mtok: "0.125", cache_write_1h_mtok: "0.2", output_mtok: "0.5" },
    longContext: { above: 100_000, rates: { input_mtok: "0.5", cache_write_mtok: "0.625", output_mtok: "2.5" } },
    unknownRates: [
      { component: "cache_read_mtok", reason: `Claude Haiku 5.5's cache-read price: ${NOT_READ}` },
      {
        component: "cache_write_1h_mtok",
        above: 100_000,
        reason: `Claude Haiku 5.5's one-hour cache-write price for prompts over 100,000 tokens: ${NOT_READ}`,
      },
    ],
  },
  // The lineup table on Anthropic's model pages (sonnet-5 overview, id locale): "Claude Fable 5.2 | 1M | 128K | $8
  // / $40". Its cache prices are on no page we read. From 2026-11-09, the launch date other sites give.
  {
    provider: "anthropic",
    models: ["claude-fable-5-2"],
    effectiveFrom: "2026-11-09",
    source: page("https://platform.claude.com/docs/id/models/sonnet-5/overview", "2026-11-26"),
    rates: { input_mtok: "8", output_mtok: "40" },
    unknownRates: (["cache_read_mtok", "cache_write_mtok", "cache_write_1h_mtok"] as const).map((component) => ({
      component,
      reason: `Claude Fable 5.2's cache prices: ${NOT_READ}`,
    })),
  },
];

/** Fast mode's pages state input and output prices; what it bills cache reads and writes, none we read says. */
const fastCache = (model: string) =>
  (["cache_read_mtok", "cache_write_mtok", "cache_write_1h_mtok"] as const).map((component) => ({
    component,
    reason: `fast mode's cache prices for ${model}: ${NOT_READ}`,
  }));
const fast = (models: string[], source: string, more: Partial<TokenPrices>): TokenPrices => ({
  provider: "anthropic",
  models,
  tier: "fast",
  // The beta header fast mode shipped behind, `fast-mode-2026-02-01`: no fast-mode call is earlier.
  effectiveFrom: "2026-02-01",
  source,
  unknownRates: fastCache(models[0] as string),
  ...more,
});
/**
 * Fast mode (`speed: "fast"`, sent as `model_tier: "fast"`): its own prices per model. Opus 5.5, Opus 5, Fable
 * 5.2 and Mythos 5.2 have fast mode too, at prices no page we read states: unpriced.
 */
const FAST_MODE: TokenPrices[] = [
  // "快速模式的定价为:提示词 ≤200K token 时为标准 Opus 费率的 6 倍 ... | ≤ 200K 输入 token | $30 / MTok | $150 / MTok |
  // | > 200K 输入 token | $60 / MTok | $225 / MTok |". Claude Code's page: "available at a 50% discount for all plans
  // until 11:59pm PT on February 16", which does not say whether API calls had it: unpriced until then.
  fast(["claude-opus-4-6"], page("https://platform.claude.com/docs/zh-CN/build-with-claude/fast-mode", "2026-11-26"), {
    until: "2026-02-17T08:00:00Z",
    unpriced:
      "fast mode's launch discount until 11:59 pm PT on 2026-02-16 may have applied; no page we read says to which calls",
  }),
  fast(["claude-opus-4-6"], page("https://platform.claude.com/docs/zh-CN/build-with-claude/fast-mode", "2026-11-26"), {
    effectiveFrom: "2026-02-17T08:00:00Z",
    rates: { input_mtok: "30", output_mtok: "150" },
    longContext: { above: 200_000, rates: { input_mtok: "60", output_mtok: "225" } },
  }),
  // Claude Code's fast-mode page: "快速模式定价在 Opus 4.8 上为 $10/$50 MTok，在 Opus 4.7 上为 $30/$150 MTok"; "Opus 4.7
  // 的快速模式 ... 将在 2026 年 7 月 24 日移除" (after which such calls are refused).
  fast(["claude-opus-4-7"], page("https://code.claude.com/docs/zh-CN/fast-mode.md", "2026-11-26"), {
    until: "2026-07-24",
    rates: { input_mtok: "30", output_mtok: "150" },
  }),
  fast(["claude-opus-4-8"], page("https://code.claude.com/docs/zh-CN/fast-mode.md", "2026-11-26"), {
    rates: { input_mtok: "10", output_mtok: "50" },
  }),
];

/**
 * Claude Sonnet 4 with the 1M context window (from 2025-08-12): "requests that exceed 200K input tokens are
 * automatically charged at premium long context rates"; the input is input_tokens + cache reads + cache
 * writes; "all tokens incur premium pricing"; cache multipliers (1.25x, 2x, 0.1x) apply on top. The
 * catalog has this tier for Sonnet 4.5 but not for Sonnet 4.
 */
export const ANTHROPIC: VendorTable = {
  units: [],
  tokens: [
    ...CLAUDE_5_MODELS,
    ...FAST_MODE,
    {
      provider: "anthropic",
      models: ["claude-sonnet-4-20250514", "claude-sonnet-4-0", "claude-sonnet-4"],
      effectiveFrom: "2025-08-12",
      source: PRICING,
      rates: {
        input_mtok: "3",
        cache_write_mtok: "3.75",
        cache_write_1h_mtok: "6",
        cache_read_mtok: "0.3",
        output_mtok: "15",
      },
      longContext: {
        above: 200_000,
        rates: {
          input_mtok: "6",
          cache_write_mtok: "7.5",
          cache_write_1h_mtok: "12",
          cache_read_mtok: "0.6",
          output_mtok: "22.5",
        },
      },
    },
  ],
  tiers: [
    // "All usage is charged at 50% of the standard API prices", long-context rates included.
    { provider: "anthropic", tier: "batch", models: ["*"], effectiveFrom: "2024-10-08", factor: "0.5", source: BATCH },
  ],
};
