import { page, type UnitPrice, type VendorTable } from "./types.ts";

const MODELS_2025_06 = page("https://docs.x.ai/docs/models", "archive.fo/dYUtw copy of 2025-06-02");
const MODELS_2025_07 = page("https://docs.x.ai/docs/models?cluster=us-east-1", "copy of July 2025");
const MODELS_2025_11 = page("https://docs.x.ai/docs/models", "copy of November 2025");
/** The pricing page's copy that lists grok-4.7 (released 2026-09-21). */
const PRICING_2026_09 = page("https://docs.x.ai/developers/pricing", "copy of 2026-09-21 or later");
const SINCE_PRICING_COPY = "2026-09-21";
/** The same page read again: its Text API table lists the same grok-4.7 and grok-4.20 multi-agent rates. */
const PRICING_REREAD = "re-read 2026-11-26, same rates";
/**
 * The Imagine overview ("Image Generation ... Pricing $0.02 / image, Resolution 1K & 2K"; "Image generation uses
 * flat per-image pricing regardless of prompt length"). The copy states no date: the price holds from the day read.
 */
const IMAGINE = page("https://docs.x.ai/docs/guides/video-generation", "2026-11-26");
const IMAGINE_FROM = "2026-11-26";

const tool = (kind: UnitPrice["kind"], usd: string, effectiveFrom: string, source: string): UnitPrice => ({
  provider: "xai",
  model: "*",
  kind,
  usd,
  effectiveFrom,
  source,
});

/** The four models the batch discount names; "Models not listed above have no batch discount". */
const BATCH_20 = ["grok-4.3", "grok-4.20", "grok-4.20-multi-agent"];

export const XAI: VendorTable = {
  units: [
    {
      provider: "xai",
      model: "grok-2-image",
      kind: "image",
      usd: "0.07",
      effectiveFrom: "2025-03-19",
      source: MODELS_2025_06,
    },
    // grok-imagine-image, the model of the page's image-generation examples; edits also bill their input image,
    // which the schema does not count, and the other Imagine models' prices are on no page we read.
    {
      provider: "xai",
      model: "grok-imagine-image",
      kind: "image",
      usd: "0.02",
      effectiveFrom: IMAGINE_FROM,
      source: IMAGINE,
    },
    // Live Search: $25 per 1,000 sources used; the request itself is free.
    tool("request:live_search", "0", "2025-05-01", MODELS_2025_07),
    tool("source_used", "0.025", "2025-05-01", MODELS_2025_07),
    // Server-side tools: $5 per 1,000 calls.
    tool("request:web_search", "0.005", "2025-11-01", MODELS_2025_11),
    tool("request:x_search", "0.005", "2025-11-01", MODELS_2025_11),
    tool("request:code_execution", "0.005", "2025-11-01", MODELS_2025_11),
    tool("request:document_search", "0.005", "2025-11-01", MODELS_2025_11),
    tool("request:collections_search", "0.0025", "2025-11-01", MODELS_2025_11),
  ],
  tokens: [
    // Grok 4 and the 4 Fast models: "higher context pricing" above 128K tokens, rates not on a copy we read.
    {
      provider: "xai",
      models: [
        "grok-4-0709",
        "grok-4",
        "grok-4-fast-reasoning",
        "grok-4-fast-non-reasoning",
        "grok-4-fast",
        "grok-4-1-fast-reasoning",
        "grok-4-1-fast-non-reasoning",
        "grok-4-1-fast",
      ],
      effectiveFrom: "2025-07-09",
      source: MODELS_2025_11,
      unknownAbove: {
        above: 128_000,
        reason: `xAI bills such requests at "higher context pricing" (${MODELS_2025_11}) whose rates no vendor copy we read states`,
      },
    },
    // The catalog prices the multi-agent model at the old $2.00 / $0.20 / $6.00 without a tier; the May 2026
    // copy lists $1.25 / $0.20 / $2.50, and ">= 200k prompt tokens" (above 199,999) at twice that.
    {
      provider: "xai",
      models: ["grok-4.20-multi-agent"],
      effectiveFrom: "2026-05-07",
      source: page("https://docs.x.ai/developers/pricing", `copy of May 2026; ${PRICING_REREAD}`),
      rates: { input_mtok: "1.25", cache_read_mtok: "0.2", output_mtok: "2.5" },
      longContext: { above: 199_999, rates: { input_mtok: "2.5", cache_read_mtok: "0.4", output_mtok: "5" } },
    },
    {
      provider: "xai",
      models: ["grok-4.7"],
      effectiveFrom: SINCE_PRICING_COPY,
      source: page("https://docs.x.ai/developers/pricing", `copy of 2026-09-21 or later; ${PRICING_REREAD}`),
      rates: { input_mtok: "2", cache_read_mtok: "0.5", output_mtok: "6" },
      longContext: { above: 199_999, rates: { input_mtok: "4", cache_read_mtok: "1", output_mtok: "12" } },
    },
  ],
  tiers: [
    {
      provider: "xai",
      tier: "batch",
      models: BATCH_20,
      effectiveFrom: SINCE_PRICING_COPY,
      factor: "0.8",
      source: PRICING_2026_09,
    },
    {
      provider: "xai",
      tier: "batch",
      models: ["*"],
      effectiveFrom: SINCE_PRICING_COPY,
      factor: "1",
      source: PRICING_2026_09,
    },
    // Priority processing: 2x every token type.
    {
      provider: "xai",
      tier: "priority",
      models: ["*"],
      effectiveFrom: SINCE_PRICING_COPY,
      factor: "2",
      source: PRICING_2026_09,
    },
  ],
};
