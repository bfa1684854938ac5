import { page, type TokenPrices } from "./types.ts";

const URL = "https://openai.com/api-priority-processing/";
/** The rows our table had first (read 2026-11-22), and those added from the copy read 2026-11-26. */
const FIRST = page(URL, "2026-11-22");
const CURRENT = page(URL, "2026-11-26");
/**
 * The same page under its new name, two stored copies read 2026-11-26: "Priority processing was renamed Fast
 * mode on July 30, 2026. You can use either service_tier: priority or service_tier: fast". The older copy
 * lists GPT-5.6 Sol at $10.00 / $1.00 / $60.00 (its list price then, $5 / $30, doubled); the newer one at
 * $8.00 / $0.80 / $40.00, after Sol's price cut of 2026-08-21 (the date in OpenAI's changelog as the catalog
 * cites it).
 */
const FAST_URL = "https://openai.com/api-fast-mode/";
const FAST_OLDER = page(FAST_URL, "older copy read 2026-11-26");
const FAST_NEWER = page(FAST_URL, "newer copy read 2026-11-26");
const RENAMED = "2026-07-30";
const SOL_CUT = "2026-08-21";

/**
 * Rows the page marks "excludes long context", footnote 1: "Requests estimated at >128K prompt tokens". What
 * such a request is billed is not on the page, so it stays unpriced rather than priced at the priority row.
 */
const EXCLUDES_LONG_CONTEXT = {
  above: 128_000,
  reason:
    'OpenAI\'s priority page (https://openai.com/api-priority-processing/) "excludes long context" (requests estimated at >128K prompt tokens) for this model and gives no price for it',
};

/**
 * GPT-5.6 rows have a "Long context" column whose threshold the fast page does not state (the catalog's tier
 * starts at 271,999, the other OpenAI pages we read say ">272K"): where the model's own page was not read
 * (Terra), from 272,000 prompt tokens unpriced.
 */
const LONG_CONTEXT_THRESHOLD_UNREAD = {
  above: 271_999,
  reason:
    "OpenAI's fast mode page (https://openai.com/api-fast-mode/) prices long context for GPT-5.6 without stating where it starts, and the GPT-5.6 model pages were not read",
};

type Row = readonly [
  models: readonly string[],
  effectiveFrom: string,
  input: string,
  cached: string | undefined,
  output: string,
  source: string,
  longContext: false | { above: number; reason: string } | NonNullable<TokenPrices["longContext"]>,
  until?: string,
];

/**
 * Priority processing, now called Fast mode (`model_tier: "priority"` or `"fast"`): one price row per model,
 * USD per 1M tokens (input, cached input, output), not one factor. The page states no start date; each row applies from no later than the
 * model's first release.
 */
const ROWS: readonly Row[] = [
  [["gpt-4o", "gpt-4o-2024-08-06", "gpt-4o-2024-11-20"], "2024-08-06", "4.25", "2.125", "17", FIRST, false],
  [["gpt-4o-2024-05-13"], "2024-05-13", "8.75", undefined, "26.25", FIRST, false],
  [["gpt-4o-mini"], "2024-07-18", "0.25", "0.125", "1", FIRST, false],
  [["gpt-4.1"], "2025-04-14", "3.5", "0.875", "14", FIRST, EXCLUDES_LONG_CONTEXT],
  [["gpt-4.1-mini"], "2025-04-14", "0.7", "0.175", "2.8", FIRST, EXCLUDES_LONG_CONTEXT],
  [["gpt-4.1-nano"], "2025-04-14", "0.2", "0.05", "0.8", FIRST, EXCLUDES_LONG_CONTEXT],
  [["o3"], "2025-04-16", "3.5", "0.875", "14", FIRST, false],
  [["o4-mini"], "2025-04-16", "2", "0.5", "8", CURRENT, false],
  [
    ["gpt-5", "gpt-5.1", "gpt-5-codex", "gpt-5.1-codex"],
    "2025-08-07",
    "2.5",
    "0.25",
    "20",
    FIRST,
    EXCLUDES_LONG_CONTEXT,
  ],
  [["gpt-5-mini"], "2025-08-07", "0.45", "0.045", "3.6", FIRST, EXCLUDES_LONG_CONTEXT],
  [["gpt-5.2"], "2025-12-01", "3.5", "0.35", "28", CURRENT, EXCLUDES_LONG_CONTEXT],
  [["gpt-5.4"], "2026-03-01", "5", "0.5", "30", CURRENT, EXCLUDES_LONG_CONTEXT],
  [["gpt-5.4-mini"], "2026-03-01", "1.5", "0.15", "9", CURRENT, EXCLUDES_LONG_CONTEXT],
  [["gpt-5.5"], "2026-04-01", "12.5", "1.25", "75", CURRENT, EXCLUDES_LONG_CONTEXT],
  // The older copy marks this row "excludes long context" (footnote 1 as on the priority page).
  [["gpt-5.6-sol"], RENAMED, "10", "1", "60", FAST_OLDER, EXCLUDES_LONG_CONTEXT, SOL_CUT],
  // Long context per the gpt-5.6-sol page's ">272K" (https://developers.openai.com/pt-BR/api/docs/models/gpt-5.6-sol,
  // read 2026-11-26) at the fast page's "Long context" column.
  [
    ["gpt-5.6-sol"],
    SOL_CUT,
    "8",
    "0.8",
    "40",
    FAST_NEWER,
    { above: 272_000, rates: { input_mtok: "16", cache_read_mtok: "1.6", output_mtok: "60" } },
  ],
  [["gpt-5.6-terra"], RENAMED, "4", "0.4", "24", FAST_NEWER, LONG_CONTEXT_THRESHOLD_UNREAD],
  // Long context per the gpt-5.6-luna page's ">272K" (https://developers.openai.com/api/docs/models/gpt-5.6-luna).
  [
    ["gpt-5.6-luna"],
    RENAMED,
    "0.4",
    "0.04",
    "2.4",
    FAST_NEWER,
    { above: 272_000, rates: { input_mtok: "0.8", cache_read_mtok: "0.08", output_mtok: "3.6" } },
  ],
];

/** Each row under both names of the tier (written as normaliseTier does). */
export const OPENAI_PRIORITY: TokenPrices[] = ROWS.flatMap(
  ([models, effectiveFrom, input, cached, output, source, longContext, until]) =>
    (["priority", "fast"] as const).map(
      (tier): TokenPrices => ({
        provider: "openai",
        models,
        tier,
        effectiveFrom,
        ...(until ? { until } : {}),
        source,
        rates: { input_mtok: input, ...(cached ? { cache_read_mtok: cached } : {}), output_mtok: output },
        ...(longContext ? ("rates" in longContext ? { longContext } : { unknownAbove: longContext }) : {}),
      }),
    ),
);
