import { page, type TokenPrices } from "./types.ts";

const URL = "https://openai.com/api-priority-processing/";
/** The rows our table had first (read 2026-11-22), and those added from the copy read 2026-11-26. */
const FIRST = page(URL, "2026-11-22");
const CURRENT = page(URL, "2026-11-26");

/**
 * Rows the page marks "excludes long context", footnote 1: "Requests estimated at >128K prompt tokens". What
 * such a request is billed is not on the page, so it stays unpriced rather than priced at the priority row.
 */
const EXCLUDES_LONG_CONTEXT = {
  above: 128_000,
  reason:
    'OpenAI\'s priority page (https://openai.com/api-priority-processing/) "excludes long context" (requests estimated at >128K prompt tokens) for this model and gives no price for it',
};

type Row = readonly [
  models: readonly string[],
  effectiveFrom: string,
  input: string,
  cached: string | undefined,
  output: string,
  source: string,
  excludesLongContext: boolean,
];

/**
 * Priority processing (`model_tier: "priority"`): one price row per model, USD per 1M tokens (input, cached
 * input, output), not one factor. The page states no start date; each row applies from no later than the
 * model's first release.
 */
const ROWS: readonly Row[] = [
  [["gpt-4o", "gpt-4o-2024-08-06", "gpt-4o-2024-11-20"], "2024-08-06", "4.25", "2.125", "17", FIRST, false],
  [["gpt-4o-2024-05-13"], "2024-05-13", "8.75", undefined, "26.25", FIRST, false],
  [["gpt-4o-mini"], "2024-07-18", "0.25", "0.125", "1", FIRST, false],
  [["gpt-4.1"], "2025-04-14", "3.5", "0.875", "14", FIRST, true],
  [["gpt-4.1-mini"], "2025-04-14", "0.7", "0.175", "2.8", FIRST, true],
  [["gpt-4.1-nano"], "2025-04-14", "0.2", "0.05", "0.8", FIRST, true],
  [["o3"], "2025-04-16", "3.5", "0.875", "14", FIRST, false],
  [["o4-mini"], "2025-04-16", "2", "0.5", "8", CURRENT, false],
  [["gpt-5", "gpt-5.1", "gpt-5-codex", "gpt-5.1-codex"], "2025-08-07", "2.5", "0.25", "20", FIRST, true],
  [["gpt-5-mini"], "2025-08-07", "0.45", "0.045", "3.6", FIRST, true],
  [["gpt-5.2"], "2025-12-01", "3.5", "0.35", "28", CURRENT, true],
  [["gpt-5.4"], "2026-03-01", "5", "0.5", "30", CURRENT, true],
  [["gpt-5.4-mini"], "2026-03-01", "1.5", "0.15", "9", CURRENT, true],
  [["gpt-5.5"], "2026-04-01", "12.5", "1.25", "75", CURRENT, true],
];

export const OPENAI_PRIORITY: TokenPrices[] = ROWS.map(
  ([models, effectiveFrom, input, cached, output, source, excludesLongContext]): TokenPrices => ({
    provider: "openai",
    models,
    tier: "priority",
    effectiveFrom,
    source,
    rates: { input_mtok: input, ...(cached ? { cache_read_mtok: cached } : {}), output_mtok: output },
    ...(excludesLongContext ? { unknownAbove: EXCLUDES_LONG_CONTEXT } : {}),
  }),
);
