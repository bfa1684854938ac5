import { page, type TokenPrices, type VendorTable } from "./types.ts";

const URL = "https://api-docs.deepseek.com/quick_start/pricing";
const JAN_2025 = page(URL, "copy of January 2025");
const AUG_2025 = page(URL, "copy of August 2025, announcing the 2025-09-05 change");
const MAY_2026 = page(URL, "copy of May 2026");

/**
 * DeepSeek's own page, as dated entries; the catalog prices deepseek-chat and deepseek-reasoner at the
 * early-2025 rates for every date, so this table wins for them. Rates: cache hit, cache miss, output.
 */
const entry = (
  models: string[],
  effectiveFrom: string,
  until: string | undefined,
  [hit, miss, output]: [string, string, string],
  source: string,
  hoursUtc?: [string, string],
): TokenPrices => ({
  provider: "deepseek",
  models,
  effectiveFrom,
  ...(until ? { until } : {}),
  ...(hoursUtc ? { hoursUtc } : {}),
  source,
  rates: { cache_read_mtok: hit, input_mtok: miss, output_mtok: output },
});

const CHAT = ["deepseek-chat"];
const REASONER = ["deepseek-reasoner"];
const BOTH = [...CHAT, ...REASONER];
/** The off-peak ("discount") window, UTC 16:30-00:30, from its announcement until 2025-09-05 16:00 UTC. */
const OFF_PEAK: [string, string] = ["16:30", "00:30"];
const NIGHT_FROM = "2025-02-26T16:30:00Z";
const NIGHT_UNTIL = "2025-09-05T16:00:00Z";

export const DEEPSEEK: VendorTable = {
  units: [],
  tokens: [
    entry(CHAT, "2024-12-26T00:00:00Z", "2025-02-08T16:00:00Z", ["0.014", "0.14", "0.28"], JAN_2025),
    entry(REASONER, "2025-01-20T00:00:00Z", undefined, ["0.14", "0.55", "2.19"], JAN_2025),
    entry(CHAT, "2025-02-08T16:00:00Z", undefined, ["0.07", "0.27", "1.1"], AUG_2025),
    entry(BOTH, NIGHT_FROM, NIGHT_UNTIL, ["0.035", "0.135", "0.55"], AUG_2025, OFF_PEAK),
    entry(BOTH, NIGHT_UNTIL, undefined, ["0.07", "0.56", "1.68"], AUG_2025),
    {
      provider: "deepseek",
      models: BOTH,
      effectiveFrom: "2025-09-29T00:00:00Z",
      source: URL,
      unpriced:
        "DeepSeek cut its prices on 2025-09-29 (V3.2-Exp) and no copy of its pricing page from then until the V4 launch was read",
    },
    // V4: deepseek-chat and deepseek-reasoner are deepseek-v4-flash (non-thinking / thinking).
    entry([...BOTH, "deepseek-v4-flash"], "2026-04-24T00:00:00Z", undefined, ["0.028", "0.14", "0.28"], MAY_2026),
    entry([...BOTH, "deepseek-v4-flash"], "2026-04-26T12:15:00Z", undefined, ["0.0028", "0.14", "0.28"], MAY_2026),
  ],
  tiers: [],
};
