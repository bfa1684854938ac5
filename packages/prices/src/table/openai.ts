import { GPT_6_TIERS, GPT_6_TOKENS } from "./openai-gpt-6.ts";
import { OPENAI_PRIORITY } from "./openai-priority.ts";
import { REALTIME_TOKENS } from "./openai-realtime.ts";
import { page, type TokenPrices, type UnitPrice, type VendorTable } from "./types.ts";

const MODELS = "https://developers.openai.com/api/docs/models";
const READ = "2026-11-22";
/** The dated copy of the gpt-4o, gpt-4o-mini and gpt-6-astra pages ("as read 2026-09-24"). */
const COPY = "2026-09-24";
/** Pages read again for the current-prices work. */
const TODAY = "2026-11-26";

const image = (
  model: string,
  usd: string,
  effectiveFrom: string,
  source: string,
  match: { quality?: string; maxSide?: number; minSide?: number },
): UnitPrice => ({ provider: "openai", model, kind: "image", usd, effectiveFrom, source, ...match });
const SMALL = { maxSide: 1024 };
const LARGE = { minSide: 1025, maxSide: 1536 };

const units: UnitPrice[] = [
  // Per image: 1024x1024 and 1024x1536 / 1536x1024.
  ...[
    ["standard", "0.04", "0.08"],
    ["hd", "0.08", "0.12"],
  ].flatMap(([quality, small, large]) => [
    image("dall-e-3", small as string, "2023-11-06", page(`${MODELS}/dall-e-3.md`, READ), { quality, maxSide: 1024 }),
    image("dall-e-3", large as string, "2023-11-06", page(`${MODELS}/dall-e-3.md`, READ), {
      quality,
      minSide: 1025,
      maxSide: 1792,
    }),
  ]),
  ...(
    [
      ["gpt-image-1", "2025-04-23", { low: ["0.011", "0.016"], medium: ["0.042", "0.063"], high: ["0.167", "0.25"] }],
      [
        "gpt-image-1-mini",
        "2025-10-06",
        { low: ["0.005", "0.006"], medium: ["0.011", "0.015"], high: ["0.036", "0.052"] },
      ],
      ["gpt-image-1.5", "2025-12-16", { low: ["0.009", "0.013"], medium: ["0.034", "0.05"] }],
    ] as const
  ).flatMap(([model, from, qualities]) =>
    Object.entries(qualities).flatMap(([quality, [small, large]]) => [
      image(model, small, from, page(`${MODELS}/${model}.md`, READ), { quality, ...SMALL }),
      image(model, large, from, page(`${MODELS}/${model}.md`, READ), { quality, ...LARGE }),
    ]),
  ),
  // Audio, USD per minute (per 60 seconds).
  ...(
    [
      ["whisper-1", "0.006", "2023-03-01"],
      ["gpt-transcribe", "0.0045", "2026-01-01"],
      ["gpt-realtime-whisper", "0.017", "2026-01-01"],
    ] as const
  ).map(
    ([model, usd, effectiveFrom]): UnitPrice => ({
      provider: "openai",
      model,
      kind: "audio_second",
      usd,
      per: 60,
      effectiveFrom,
      source: page(`${MODELS}/${model}.md`, READ),
    }),
  ),
  // Video, USD per second (720x1280 or 1280x720).
  {
    provider: "openai",
    model: "sora-2",
    kind: "video_second",
    usd: "0.1",
    effectiveFrom: "2025-10-06",
    source: page(`${MODELS}/sora-2.md`, READ),
  },
];

/** No copy of OpenAI's pricing page read (searched 2026-11-29) reached its fine-tuning table. */
const FINE_TUNING = page("https://developers.openai.com/api/docs/pricing (fine-tuning)", "2026-11-29");
const FINE_TUNED_UNREAD = "no copy of OpenAI's pricing page we read states it";
/**
 * Fine-tuned models (`ft:<base snapshot>:<org>:<name>:<id>`). The catalog prices fine-tuned gpt-4o and
 * gpt-4o-mini without a cached-input rate, so cached tokens fell back to the full input rate: unpriced
 * instead. Fine-tunes of gpt-4.1 (and -mini, -nano) and o4-mini: their price is on no page we read.
 */
const FINE_TUNED: TokenPrices[] = [
  {
    provider: "openai",
    models: ["ft:gpt-4o", "ft:gpt-4o-mini"],
    effectiveFrom: "2024-07-18",
    source: FINE_TUNING,
    unknownRates: [
      { component: "cache_read_mtok", reason: `the cached-input price of fine-tuned models: ${FINE_TUNED_UNREAD}` },
    ],
  },
  {
    provider: "openai",
    models: ["ft:gpt-4.1", "ft:gpt-4.1-mini", "ft:gpt-4.1-nano", "ft:o4-mini"],
    effectiveFrom: "2025-04-14",
    source: FINE_TUNING,
    unpriced: `the price of fine-tuned gpt-4.1 and o4-mini models: ${FINE_TUNED_UNREAD} (${FINE_TUNING})`,
  },
];

const tokens: TokenPrices[] = [
  // Audio tokens the catalog lacks (it bills them at the text rate).
  {
    provider: "openai",
    models: ["gpt-4o-audio-preview"],
    effectiveFrom: "2024-12-17",
    source: page(`${MODELS}/gpt-4o-audio-preview.md`, READ),
    rates: { input_mtok: "2.5", output_mtok: "10", input_audio_mtok: "40", output_audio_mtok: "80" },
  },
  {
    provider: "openai",
    models: ["gpt-4o-mini-audio-preview"],
    effectiveFrom: "2024-12-17",
    source: page(`${MODELS}/gpt-4o-mini-audio-preview.md`, READ),
    rates: { input_mtok: "0.15", output_mtok: "0.6", input_audio_mtok: "10", output_audio_mtok: "20" },
  },
  {
    provider: "openai",
    models: ["gpt-4o-realtime-preview"],
    effectiveFrom: "2024-12-17",
    source: page(`${MODELS}/gpt-4o-realtime-preview`, READ),
    rates: {
      input_mtok: "5",
      cache_read_mtok: "2.5",
      output_mtok: "20",
      input_audio_mtok: "40",
      cache_audio_read_mtok: "2.5",
      output_audio_mtok: "80",
    },
  },
  // The first snapshots had their own, higher audio prices, which no OpenAI page we read states.
  {
    provider: "openai",
    models: ["gpt-4o-realtime-preview-2024-10-01", "gpt-4o-audio-preview-2024-10-01"],
    effectiveFrom: "2024-10-01",
    source: page(`${MODELS}/gpt-4o-realtime-preview`, READ),
    unpriced: "the 2024-10-01 snapshots had their own audio prices, not on the OpenAI pages read (read 2026-11-22)",
  },
  // The page prices audio output only ($12), no text output.
  {
    provider: "openai",
    models: ["gpt-4o-mini-tts"],
    effectiveFrom: "2025-03-20",
    source: page(`${MODELS}/gpt-4o-mini-tts`, READ),
    rates: { input_mtok: "0.6", output_audio_mtok: "12" },
  },
  // "More than 272K input tokens ... 2x input and cache rates and 1.5x output for the full request".
  {
    provider: "openai",
    models: ["gpt-6-astra"],
    effectiveFrom: "2026-01-01",
    source: page(`${MODELS}/gpt-6-astra.md`, COPY),
    rates: { input_mtok: "10", cache_read_mtok: "1", cache_write_mtok: "12.5", output_mtok: "50" },
    longContext: {
      above: 272_000,
      rates: { input_mtok: "20", cache_read_mtok: "2", cache_write_mtok: "25", output_mtok: "75" },
    },
  },
  // Long-context thresholds as the model pages word them, where the catalog starts its tier at 271,999 (so
  // 272,000 was long): the catalog's rates stay, agreeing with the pages; its tier starts above 272,000.
  // gpt-5.4 and gpt-5.4-pro: "For models with a 1.05M context window (GPT-5.4 and GPT-5.4 pro), prompts with
  // >272K input tokens are priced at 2x input and 1.5x output for the full session for standard, batch, and
  // flex" ($2.50 / $0.25 / $15 for gpt-5.4).
  ...(["gpt-5.4", "gpt-5.4-pro"] as const).map(
    (model): TokenPrices => ({
      provider: "openai",
      models: [model],
      // Before either model's launch: the page's threshold has applied to every call.
      effectiveFrom: "2026-01-01",
      source: page(`${MODELS}/${model}`, TODAY),
      longContextAbove: 272_000,
    }),
  ),
  // gpt-5.6-sol: "Para prompts com >272K tokens de entrada, os preços são de 2x para entrada e 1,5x para saída"
  // (its page, Portuguese edition; $4 / $0.40 / $20 as the catalog has them from 2026-08-21).
  {
    provider: "openai",
    models: ["gpt-5.6-sol"],
    effectiveFrom: "2026-07-01",
    source: page("https://developers.openai.com/pt-BR/api/docs/models/gpt-5.6-sol", TODAY),
    longContextAbove: 272_000,
  },
  // gpt-5.6-luna: "Prompts with >272K input tokens are priced at 2x input and 1.5x output for the full request"
  // ($0.20 / $0.02 / $1.20 as the catalog has them now).
  {
    provider: "openai",
    models: ["gpt-5.6-luna"],
    effectiveFrom: "2026-07-01",
    source: page(`${MODELS}/gpt-5.6-luna`, TODAY),
    longContextAbove: 272_000,
  },
  ...FINE_TUNED,
  ...OPENAI_PRIORITY,
  ...GPT_6_TOKENS,
  ...REALTIME_TOKENS,
];

export const OPENAI: VendorTable = {
  units,
  tokens,
  tiers: [
    {
      provider: "openai",
      tier: "batch",
      models: ["*"],
      effectiveFrom: "2024-04-15",
      factor: "0.5",
      source: page("https://help.openai.com/en/articles/9197833-batch-api-faq", READ),
    },
    // "Priced at Batch API rates, with additional discounts from prompt caching": cached at half the cached rate.
    {
      provider: "openai",
      tier: "flex",
      models: ["*"],
      effectiveFrom: "2025-04-16",
      factor: "0.5",
      source: page("https://developers.openai.com/api/docs/guides/flex-processing.md", READ),
    },
    ...GPT_6_TIERS,
  ],
};
