import { page, type TokenPrices, type UnitPrice, type VendorTable } from "./types.ts";

/**
 * AWS's pricing page renders its numbers client-side; the figures below are AWS's own Price List
 * (offer AmazonBedrock, us-east-1, version 20260901205051, published 2026-09-01), the source the page
 * itself reads. Claude on Bedrock is the catalog's (equal to Anthropic's list price; regional profiles of
 * Sonnet 4.5, Haiku 4.5, Opus 4.5 and later +10%, per Anthropic's pricing page).
 */
const PRICE_LIST = page(
  "https://pricing.us-east-1.amazonaws.com/offers/v1.0/aws/AmazonBedrock/current/us-east-1/index.json (version 20260901205051, for https://aws.amazon.com/bedrock/pricing/)",
  "2026-11-22",
);

const canvas = (quality: string, usd: string, side: { maxSide?: number; minSide?: number }): UnitPrice => ({
  provider: "bedrock",
  model: "amazon.nova-canvas-v1:0",
  kind: "image",
  usd,
  effectiveFrom: "2024-12-03",
  source: PRICE_LIST,
  quality,
  ...side,
});

/** Nova Pro's service tiers, USD per million tokens (the list gives per 1,000). */
const novaPro = (tier: string, input: string, output: string): TokenPrices => ({
  provider: "bedrock",
  models: ["amazon.nova-pro-v1:0"],
  tier,
  effectiveFrom: "2026-09-01",
  source: PRICE_LIST,
  rates: { input_mtok: input, output_mtok: output },
});

export const BEDROCK: VendorTable = {
  units: [
    // Text-to-image; "premium" is sent as quality "hd".
    canvas("standard", "0.04", { maxSide: 1024 }),
    canvas("hd", "0.06", { maxSide: 1024 }),
    canvas("standard", "0.06", { minSide: 1025, maxSide: 2048 }),
    canvas("hd", "0.08", { minSide: 1025, maxSide: 2048 }),
  ],
  tokens: [
    // Claude Sonnet 4 and 4.5 on Bedrock (every regional and global profile) take prompts above 200K tokens
    // (the 1M context window). Anthropic bills those at its long-context rates; AWS's Price List has no
    // long-context rows for them, so such prompts stay unpriced, never billed at the base rates.
    {
      provider: "bedrock",
      models: ["anthropic.claude-sonnet-4-20250514-v1:0", "anthropic.claude-sonnet-4-5-20250929-v1:0"],
      effectiveFrom: "2025-05-22",
      source: PRICE_LIST,
      unknownAbove: {
        above: 200_000,
        reason: `AWS's Price List (${PRICE_LIST}) states no long-context rate for Claude Sonnet 4 or 4.5 on Bedrock`,
      },
    },
    novaPro("flex", "0.4", "1.6"),
    novaPro("priority", "1.4", "5.6"),
    novaPro("latency_optimized", "1", "4"),
    // The Price List as read has Nova 2 Lite's flex rows only; its standard (on-demand) price is on no AWS page
    // we could read, so standard calls stay unpriced with that reason.
    {
      provider: "bedrock",
      models: ["amazon.nova-2-lite-v1:0"],
      effectiveFrom: "2025-12-02",
      source: PRICE_LIST,
      unknownRates: (["input_mtok", "output_mtok"] as const).map((component) => ({
        component,
        reason: `Nova 2 Lite's standard (on-demand) price: the Price List we read (${PRICE_LIST}) lists only its flex rates`,
      })),
    },
    {
      provider: "bedrock",
      models: ["amazon.nova-2-lite-v1:0"],
      tier: "flex",
      effectiveFrom: "2026-09-01",
      source: PRICE_LIST,
      rates: { input_mtok: "0.165", output_mtok: "1.375" },
    },
  ],
  tiers: [],
};
