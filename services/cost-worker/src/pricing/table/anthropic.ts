import { page, type VendorTable } from "./types.ts";

const PRICING = page("https://platform.claude.com/docs/en/about-claude/pricing", "2026-11-22");
const BATCH = page("https://platform.claude.com/docs/zh-CN/build-with-claude/batch-processing", "2026-11-22");

/**
 * Claude Sonnet 4 with the 1M context window (from 2025-08-12): "requests that exceed 200K input tokens are
 * automatically charged at premium long context rates"; the input is input_tokens + cache reads + cache
 * writes; "all tokens incur premium pricing"; cache multipliers (1.25x, 2x, 0.1x) apply on top. The
 * catalog has this tier for Sonnet 4.5 but not for Sonnet 4.
 */
export const ANTHROPIC: VendorTable = {
  units: [],
  tokens: [
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
