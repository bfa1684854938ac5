import { page, type TokenPrices, type VendorTable } from "./types.ts";

const URL = "https://api-docs.deepseek.com/quick_start/pricing";
const JAN_2025 = page(URL, "copy of January 2025");
const AUG_2025 = page(URL, "copy of August 2025, announcing the 2025-09-05 change");
const MAY_2026 = page(URL, "copy of May 2026");
const READ = "2026-11-26";
/** The May 2026 copy's V4-Flash rates, which the announcing copy (read 2026-11-26) lists again. */
const MAY_2026_REREAD = page(
  URL,
  `copy of May 2026; the copy announcing the 2026-08-16 change, read ${READ}, lists the same`,
);
/** The English copy announcing peak / off-peak billing (V4-Flash-0731, V4-Pro-0813, flat prices). */
const ANNOUNCED = page(`${URL} (copy announcing the 2026-08-16 change)`, READ);
/** The English copy after the change that still lists deepseek-v4-flash and deepseek-v4-flash-vision-exp. */
const PEAK_V4 = page(`${URL} (copy listing deepseek-v4-flash at peak / off-peak)`, READ);
/** The English copy listing deepseek-flash (DeepSeek-V4.1-Flash-1017) beside deepseek-v4-pro, and its Chinese one. */
const PEAK_V41 = page(`${URL} and /zh-cn/quick_start/pricing (copies listing deepseek-flash)`, READ);

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

/**
 * Peak / off-peak billing from 2026-08-16 16:00 UTC: "off-peak rates at half the peak rates. Peak hours are
 * 01:00 - 04:00 and 06:00 - 10:00 UTC" (ANNOUNCED). The Chinese copy words the days: peak is Beijing time
 * Monday to Friday, Chinese statutory holidays excepted, 9:00-12:00 and 14:00-18:00 (01:00-04:00 and
 * 06:00-10:00 UTC, so the same calendar day in UTC); weekends and statutory holidays are off-peak all day.
 */
const PEAK_FROM = "2026-08-16T16:00:00Z";
/**
 * deepseek-flash (V4.1-Flash) and its prices for the legacy flash names. No copy of DeepSeek's page we read
 * states the instant; 2026-09-10 04:00 UTC is the V4.1-Flash API release as reported of DeepSeek's release note.
 */
const FLASH_41_FROM = "2026-09-10T04:00:00Z";
const V4_FLASH = ["deepseek-v4-flash", "deepseek-v4-flash-vision-exp"];
const V4_PRO = ["deepseek-v4-pro"];
const PEAK_HOURS: Array<[string, string]> = [
  ["01:00", "04:00"],
  ["06:00", "10:00"],
];
const WEEKDAYS = [1, 2, 3, 4, 5];
/**
 * The statutory holidays on weekdays from 2026-08-16: Mid-Autumn Festival 9-25, National Day 10-1 to 10-7
 * ("国务院办公厅关于2026年部分节假日安排的通知", https://politics.gmw.cn/2025-11/04/content_38391083.htm, read
 * 2026-11-26). The make-up working days (9-20, 10-10) are weekends, off-peak by the page's words.
 */
const CN_HOLIDAYS_2026 = ["2026-09-25", "2026-10-01", "2026-10-02", "2026-10-05", "2026-10-06", "2026-10-07"];

type Rates = [hit: string, miss: string, output: string];
/** The page's off-peak rates all day, its peak rates in the weekday peak windows. */
function peakAndOffPeak(
  models: string[],
  effectiveFrom: string,
  until: string | undefined,
  [offPeak, peak]: [Rates, Rates],
  source: string,
): TokenPrices[] {
  return [
    entry(models, effectiveFrom, until, offPeak, source),
    ...PEAK_HOURS.map((hoursUtc) => ({
      ...entry(models, effectiveFrom, until, peak, source, hoursUtc),
      weekdaysUtc: WEEKDAYS,
      exceptDatesUtc: CN_HOLIDAYS_2026,
    })),
  ];
}

/**
 * The announcing copy made every day's windows peak; later copies make weekends off-peak, from a date no copy
 * we read states. The one weekend day between, Saturday 2026-08-22, stays unpriced in the windows.
 */
const WEEKEND_RULE_UNREAD: TokenPrices[] = PEAK_HOURS.map((hoursUtc) => ({
  provider: "deepseek",
  models: [...V4_FLASH, ...V4_PRO],
  effectiveFrom: "2026-08-22T00:00:00Z",
  until: "2026-08-23T00:00:00Z",
  hoursUtc,
  source: PEAK_V4,
  unpriced:
    "DeepSeek's pricing page does not say whether its peak hours applied on Saturday 2026-08-22 (later copies make weekends off-peak)",
}));

/**
 * Names other sites give DeepSeek's open-weight releases, which are not ids of DeepSeek's API: no copy of
 * DeepSeek's pricing page prices them (the catalog's rates for them are on no DeepSeek page), so they stay
 * unpriced rather than be billed at a rate DeepSeek never stated.
 */
const NOT_API_IDS: TokenPrices = {
  provider: "deepseek",
  models: ["deepseek-r1", "deepseek-v3.2"],
  effectiveFrom: "2024-01-01T00:00:00Z",
  source: PEAK_V41,
  unpriced:
    "not a DeepSeek API model id: DeepSeek's pricing page (every copy read, the latest on 2026-11-26) lists no price for it; send the API's model id (deepseek-chat, deepseek-reasoner, deepseek-v4-pro, ...)",
};

export const DEEPSEEK: VendorTable = {
  units: [],
  tokens: [
    NOT_API_IDS,
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
    // V4: deepseek-chat and deepseek-reasoner are deepseek-v4-flash (non-thinking / thinking), flat until the
    // peak / off-peak change ("The new prices take effect at 16:00 UTC on August 16, 2026", ANNOUNCED).
    entry([...BOTH, "deepseek-v4-flash"], "2026-04-24T00:00:00Z", PEAK_FROM, ["0.028", "0.14", "0.28"], MAY_2026),
    entry(
      [...BOTH, "deepseek-v4-flash"],
      "2026-04-26T12:15:00Z",
      PEAK_FROM,
      ["0.0028", "0.14", "0.28"],
      MAY_2026_REREAD,
    ),
    // deepseek-v4-pro's flat price before the change, on the announcing copy; from the V4 cache-price cut as
    // for deepseek-v4-flash. The catalog prices 01:00-04:00 and 06:00-10:00 UTC of every earlier day at the
    // later peak rates, 12 times the cache-hit price the page had then.
    entry(V4_PRO, "2026-04-26T12:15:00Z", PEAK_FROM, ["0.003625", "0.435", "0.87"], ANNOUNCED),
    {
      provider: "deepseek",
      models: BOTH,
      effectiveFrom: PEAK_FROM,
      source: ANNOUNCED,
      unpriced:
        "DeepSeek's pricing page lists no price for deepseek-chat or deepseek-reasoner from its 2026-08-16 16:00 UTC change",
    },
    ...peakAndOffPeak(
      V4_FLASH,
      PEAK_FROM,
      FLASH_41_FROM,
      [
        ["0.007", "0.22", "0.66"],
        ["0.014", "0.44", "1.32"],
      ],
      PEAK_V4,
    ),
    ...peakAndOffPeak(
      V4_PRO,
      PEAK_FROM,
      undefined,
      [
        ["0.022", "0.66", "1.98"],
        ["0.044", "1.32", "3.96"],
      ],
      PEAK_V4,
    ),
    // "The legacy names deepseek-v4-flash and deepseek-v4-flash-vision-exp are still accepted, but the
    // corresponding models have been retired", billed at Flash prices.
    ...peakAndOffPeak(
      ["deepseek-flash", ...V4_FLASH],
      FLASH_41_FROM,
      undefined,
      [
        ["0.003", "0.15", "0.6"],
        ["0.006", "0.3", "1.2"],
      ],
      PEAK_V41,
    ),
    ...WEEKEND_RULE_UNREAD,
  ],
  tiers: [],
};
