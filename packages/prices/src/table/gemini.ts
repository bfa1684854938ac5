import { page, type TokenPrices, type UnitPrice, type VendorTable } from "./types.ts";

const URL = "https://ai.google.dev/gemini-api/docs/pricing";
/** Stored copies of the page, by the date in their footer. */
const COPY_2025 = page(URL, "copy last updated 2025-10-02");
const COPY_2026 = page(URL, "copy last updated 2026-06-02");

const unit = (
  model: string,
  kind: UnitPrice["kind"],
  usd: string,
  effectiveFrom: string,
  source: string,
): UnitPrice => ({
  provider: "gemini",
  model,
  kind,
  usd,
  effectiveFrom,
  source,
});

/**
 * Context-caching prices before Google's cut (on the 2025-10-02 copy; the new ones on every later copy).
 * The page states no date for the cut: the old prices hold through the 2025-10-02 copy, the new ones from
 * the day after.
 */
const CACHE_CUT = "2025-10-03";
const oldCache = (models: string[], rates: TokenPrices["rates"], longContext?: TokenPrices["longContext"]) =>
  ({
    provider: "gemini",
    models,
    effectiveFrom: "2025-06-17",
    until: CACHE_CUT,
    source: COPY_2025,
    rates,
    ...(longContext ? { longContext } : {}),
  }) satisfies TokenPrices;

/** Models with Flex and Priority tabs on the 2026-06-02 copy. */
const FLEX_AND_PRIORITY = [
  "gemini-2.5-pro",
  "gemini-2.5-flash",
  "gemini-2.5-flash-lite",
  "gemini-2.5-flash-image",
  "gemini-3-flash-preview",
  "gemini-3.1-pro-preview",
  "gemini-3.1-flash-lite",
  "gemini-3.5-flash",
];
/** Batch and Flex halve input and output; the cache price is "Same as Standard" except on these. */
const CACHE_HALVED = ["gemini-3.1-flash-lite", "gemini-3.5-flash"];

export const GEMINI: VendorTable = {
  units: [
    unit("gemini-2.5-flash-image", "image", "0.039", "2025-08-26", COPY_2025),
    unit("imagen-3.0-generate", "image", "0.03", "2025-02-06", COPY_2025),
    unit("imagen-4.0-fast-generate", "image", "0.02", "2025-06-24", COPY_2025),
    unit("imagen-4.0-generate", "image", "0.04", "2025-06-24", COPY_2025),
    unit("imagen-4.0-ultra-generate", "image", "0.06", "2025-06-24", COPY_2025),
    // Veo prices fell on 2025-09-09; the earlier ones are as Google announced the cut.
    unit("veo-2.0-generate", "video_second", "0.35", "2025-04-09", COPY_2025),
    unit("veo-3.0-generate", "video_second", "0.75", "2025-07-17", page(URL, "announcement of the 2025-09-09 cut")),
    unit("veo-3.0-generate", "video_second", "0.4", "2025-09-09", COPY_2025),
    unit("veo-3.0-fast-generate", "video_second", "0.4", "2025-07-31", page(URL, "announcement of the 2025-09-09 cut")),
    unit("veo-3.0-fast-generate", "video_second", "0.15", "2025-09-09", COPY_2025),
    // Grounding, USD per grounded prompt ($35 / 1,000) on Gemini 2.x; per search query ($14 / 1,000) on 3.x.
    // The free daily/monthly allowances are per project and are not applied per transaction.
    unit("gemini-2*", "request:google_grounding", "0.035", "2025-01-01", COPY_2025),
    unit("gemini-2*", "request:maps_grounding", "0.025", "2025-08-28", COPY_2026),
    unit("gemini-3*", "request:google_grounding", "0.014", "2025-11-18", COPY_2026),
    unit("gemini-3*", "request:maps_grounding", "0.014", "2025-11-18", COPY_2026),
  ],
  tokens: [
    oldCache(["gemini-2.5-pro"], { cache_read_mtok: "0.31" }, { above: 200_000, rates: { cache_read_mtok: "0.625" } }),
    oldCache(["gemini-2.5-flash"], { cache_read_mtok: "0.075", cache_audio_read_mtok: "0.25" }),
    oldCache(["gemini-2.5-flash-lite"], { cache_read_mtok: "0.025", cache_audio_read_mtok: "0.125" }),
  ],
  tiers: [
    {
      provider: "gemini",
      tier: "batch",
      models: ["gemini-2*", "gemini-3*"],
      // Batch Mode launched on 2025-07-07 ("Batch Mode in the Gemini API", Google Developers Blog) at "50%
      // less than the standard rate"; the page's Batch tables keep the cache price "Same as Standard".
      effectiveFrom: "2025-07-07",
      factor: "0.5",
      factors: { cache_read_mtok: "1", cache_audio_read_mtok: "1", cache_image_read_mtok: "1" },
      source: COPY_2026,
    },
    ...CACHE_HALVED.flatMap((model) =>
      ["batch", "flex"].map((tier) => ({
        provider: "gemini" as const,
        tier,
        models: [model],
        effectiveFrom: "2026-06-02",
        factor: "0.5",
        source: COPY_2026,
      })),
    ),
    {
      provider: "gemini",
      tier: "flex",
      models: FLEX_AND_PRIORITY.filter((model) => !CACHE_HALVED.includes(model)),
      effectiveFrom: "2026-06-02",
      factor: "0.5",
      factors: { cache_read_mtok: "1", cache_audio_read_mtok: "1", cache_image_read_mtok: "1" },
      source: COPY_2026,
    },
    // Priority is 1.8x every token price, cache included.
    {
      provider: "gemini",
      tier: "priority",
      models: FLEX_AND_PRIORITY,
      effectiveFrom: "2026-06-02",
      factor: "1.8",
      source: COPY_2026,
    },
  ],
};
