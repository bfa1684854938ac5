import { decimal, type Provider } from "@usage-ingestion/shared";
import type { ImageRequest, Rate } from "./rates.ts";

/**
 * What the catalog lacks: per-image, per-second and per-request prices, and tier discounts. Each price
 * carries its source and the date it took effect; the one in effect at the transaction's receive time
 * is used. Keep entries sorted by model, then date.
 */
export interface SupplementPrice {
  provider: Provider;
  /** Exact model id after normalisation (see normaliseModelId); dated variants match too. */
  model: string;
  kind: "image" | "audio_second" | "video_second" | `request:${string}` | "source_used";
  /** For images: the quality and the largest side (px) this price covers; absent, any. */
  quality?: string;
  maxSide?: number;
  minSide?: number;
  usd: string;
  per?: number;
  effectiveFrom: string;
  source: string;
}

const OPENAI = "https://platform.openai.com/docs/pricing";
const GEMINI = "https://ai.google.dev/gemini-api/docs/pricing";
const XAI = "https://docs.x.ai/docs/models";
const BEDROCK = "https://aws.amazon.com/bedrock/pricing/";

const image = (
  provider: Provider,
  model: string,
  usd: string,
  effectiveFrom: string,
  source: string,
  match: { quality?: string; maxSide?: number; minSide?: number } = {},
): SupplementPrice => ({ provider, model, kind: "image", usd, effectiveFrom, source, ...match });

export const SUPPLEMENT: readonly SupplementPrice[] = [
  // Images, USD per image.
  image("openai", "dall-e-2", "0.016", "2023-11-06", OPENAI, { maxSide: 256 }),
  image("openai", "dall-e-2", "0.018", "2023-11-06", OPENAI, { minSide: 257, maxSide: 512 }),
  image("openai", "dall-e-2", "0.02", "2023-11-06", OPENAI, { minSide: 513, maxSide: 1024 }),
  image("openai", "dall-e-3", "0.04", "2023-11-06", OPENAI, { quality: "standard", maxSide: 1024 }),
  image("openai", "dall-e-3", "0.08", "2023-11-06", OPENAI, { quality: "standard", minSide: 1025, maxSide: 1792 }),
  image("openai", "dall-e-3", "0.08", "2023-11-06", OPENAI, { quality: "hd", maxSide: 1024 }),
  image("openai", "dall-e-3", "0.12", "2023-11-06", OPENAI, { quality: "hd", minSide: 1025, maxSide: 1792 }),
  image("openai", "gpt-image-1", "0.011", "2025-04-23", OPENAI, { quality: "low", maxSide: 1024 }),
  image("openai", "gpt-image-1", "0.042", "2025-04-23", OPENAI, { quality: "medium", maxSide: 1024 }),
  image("openai", "gpt-image-1", "0.167", "2025-04-23", OPENAI, { quality: "high", maxSide: 1024 }),
  image("openai", "gpt-image-1", "0.016", "2025-04-23", OPENAI, { quality: "low", minSide: 1025, maxSide: 1536 }),
  image("openai", "gpt-image-1", "0.063", "2025-04-23", OPENAI, { quality: "medium", minSide: 1025, maxSide: 1536 }),
  image("openai", "gpt-image-1", "0.25", "2025-04-23", OPENAI, { quality: "high", minSide: 1025, maxSide: 1536 }),
  image("gemini", "gemini-2.5-flash-image", "0.039", "2025-08-26", GEMINI),
  image("gemini", "imagen-3.0-generate", "0.03", "2025-02-06", GEMINI),
  image("gemini", "imagen-4.0-fast-generate", "0.02", "2025-06-24", GEMINI),
  image("gemini", "imagen-4.0-generate", "0.04", "2025-06-24", GEMINI),
  image("gemini", "imagen-4.0-ultra-generate", "0.06", "2025-06-24", GEMINI),
  image("xai", "grok-2-image", "0.07", "2025-03-19", XAI),
  image("bedrock", "amazon.nova-canvas-v1:0", "0.04", "2024-12-03", BEDROCK, { quality: "standard", maxSide: 1024 }),
  image("bedrock", "amazon.nova-canvas-v1:0", "0.06", "2024-12-03", BEDROCK, { quality: "hd", maxSide: 1024 }),
  image("bedrock", "amazon.nova-canvas-v1:0", "0.08", "2024-12-03", BEDROCK, {
    quality: "standard",
    minSide: 1025,
    maxSide: 2048,
  }),
  image("bedrock", "amazon.nova-canvas-v1:0", "0.1", "2024-12-03", BEDROCK, {
    quality: "hd",
    minSide: 1025,
    maxSide: 2048,
  }),

  // Audio, USD per second ($0.006 a minute is $0.0001 a second).
  {
    provider: "openai",
    model: "whisper-1",
    kind: "audio_second",
    usd: "0.0001",
    effectiveFrom: "2023-03-01",
    source: OPENAI,
  },
  {
    provider: "openai",
    model: "gpt-4o-transcribe",
    kind: "audio_second",
    usd: "0.0001",
    effectiveFrom: "2025-03-20",
    source: OPENAI,
  },
  {
    provider: "openai",
    model: "gpt-4o-mini-transcribe",
    kind: "audio_second",
    usd: "0.00005",
    effectiveFrom: "2025-03-20",
    source: OPENAI,
  },

  // Video, USD per second. Veo prices fell on 2025-09-09: a transaction is priced as of its receive time.
  {
    provider: "gemini",
    model: "veo-2.0-generate",
    kind: "video_second",
    usd: "0.35",
    effectiveFrom: "2025-04-09",
    source: GEMINI,
  },
  {
    provider: "gemini",
    model: "veo-3.0-generate",
    kind: "video_second",
    usd: "0.75",
    effectiveFrom: "2025-07-17",
    source: GEMINI,
  },
  {
    provider: "gemini",
    model: "veo-3.0-generate",
    kind: "video_second",
    usd: "0.4",
    effectiveFrom: "2025-09-09",
    source: GEMINI,
  },
  {
    provider: "gemini",
    model: "veo-3.0-fast-generate",
    kind: "video_second",
    usd: "0.4",
    effectiveFrom: "2025-07-31",
    source: GEMINI,
  },
  {
    provider: "gemini",
    model: "veo-3.0-fast-generate",
    kind: "video_second",
    usd: "0.15",
    effectiveFrom: "2025-09-09",
    source: GEMINI,
  },
  {
    provider: "openai",
    model: "sora-2",
    kind: "video_second",
    usd: "0.1",
    effectiveFrom: "2025-10-06",
    source: OPENAI,
  },
  {
    provider: "openai",
    model: "sora-2-pro",
    kind: "video_second",
    usd: "0.3",
    effectiveFrom: "2025-10-06",
    source: OPENAI,
  },

  // Tool requests, USD per request, for every model of the vendor ("*").
  {
    provider: "openai",
    model: "*",
    kind: "request:code_execution",
    usd: "0.03",
    effectiveFrom: "2025-03-11",
    source: OPENAI,
  },
  {
    provider: "gemini",
    model: "*",
    kind: "request:google_grounding",
    usd: "0.035",
    effectiveFrom: "2025-01-01",
    source: GEMINI,
  },
  {
    provider: "gemini",
    model: "*",
    kind: "request:maps_grounding",
    usd: "0.025",
    effectiveFrom: "2025-08-28",
    source: GEMINI,
  },
  { provider: "xai", model: "*", kind: "request:live_search", usd: "0", effectiveFrom: "2025-05-01", source: XAI },
  { provider: "xai", model: "*", kind: "source_used", usd: "0.025", effectiveFrom: "2025-05-01", source: XAI },
  { provider: "xai", model: "*", kind: "request:web_search", usd: "0.005", effectiveFrom: "2025-11-01", source: XAI },
  { provider: "xai", model: "*", kind: "request:x_search", usd: "0.005", effectiveFrom: "2025-11-01", source: XAI },
  {
    provider: "xai",
    model: "*",
    kind: "request:code_execution",
    usd: "0.005",
    effectiveFrom: "2025-11-01",
    source: XAI,
  },
  {
    provider: "xai",
    model: "*",
    kind: "request:document_search",
    usd: "0.0025",
    effectiveFrom: "2025-11-01",
    source: XAI,
  },
  {
    provider: "xai",
    model: "*",
    kind: "request:collections_search",
    usd: "0.0025",
    effectiveFrom: "2025-11-01",
    source: XAI,
  },
];

/** Token-price multipliers by `model_tier`. A tier not listed for a vendor leaves the transaction unpriced. */
export const TIER_DISCOUNTS: Partial<Record<Provider, Record<string, { factor: string; source: string }>>> = {
  openai: {
    batch: { factor: "0.5", source: "https://platform.openai.com/docs/guides/batch" },
    flex: { factor: "0.5", source: "https://platform.openai.com/docs/guides/flex-processing" },
  },
  anthropic: {
    batch: { factor: "0.5", source: "https://docs.anthropic.com/en/docs/build-with-claude/batch-processing" },
  },
  gemini: { batch: { factor: "0.5", source: "https://ai.google.dev/gemini-api/docs/batch-mode" } },
  bedrock: { batch: { factor: "0.5", source: BEDROCK } },
};
/** Tiers that mean the ordinary price. */
export const STANDARD_TIERS = new Set(["standard", "default", "on_demand", "on-demand"]);

const BEDROCK_REGION = /^(us|eu|apac|au|ca|jp|us-gov|global)\./;
/** Vendors' spellings of one model: `models/` (Gemini), a Bedrock region prefix, upper case. */
export function normaliseModelId(model: string): string {
  return model
    .trim()
    .toLowerCase()
    .replace(/^models\//, "")
    .replace(BEDROCK_REGION, "");
}

/** `imagen-4.0-generate` matches `imagen-4.0-generate-001` and dated ids such as `dall-e-3-2024-01-01`. */
function modelMatches(pattern: string, model: string): boolean {
  if (pattern === "*" || pattern === model) return true;
  return model.startsWith(`${pattern}-`) && /^[\d-]+$/.test(model.slice(pattern.length + 1));
}

function inEffect(prices: SupplementPrice[], at: Date): SupplementPrice | undefined {
  const time = at.toISOString();
  return prices
    .filter((price) => price.effectiveFrom <= time)
    .sort((a, b) => (a.effectiveFrom < b.effectiveFrom ? 1 : -1))[0];
}

const toRate = (price: SupplementPrice, unit: string): Rate => ({
  price: decimal(price.usd),
  per: price.per ?? 1,
  unit,
  source: `${price.source} (effective ${price.effectiveFrom})`,
});

export function supplementRates(provider: Provider, model: string, at: Date) {
  const normalised = normaliseModelId(model);
  const mine = SUPPLEMENT.filter((price) => price.provider === provider && modelMatches(price.model, normalised));
  const find = (kind: SupplementPrice["kind"], unit: string) => {
    const found = inEffect(
      mine.filter((price) => price.kind === kind),
      at,
    );
    return found ? toRate(found, unit) : undefined;
  };
  const requests: Record<string, Rate> = {};
  for (const kind of new Set(mine.map((price) => price.kind))) {
    if (!kind.startsWith("request:")) continue;
    const rate = find(kind, "request");
    if (rate) requests[kind.slice("request:".length)] = rate;
  }
  const images = mine.filter((price) => price.kind === "image");
  return {
    image: images.length
      ? (request: ImageRequest) => {
          // Every vendor here defaults to 1024x1024 and to its "standard" quality where it has one.
          const side = Math.max(request.width ?? 0, request.height ?? 0) || 1024;
          const quality = request.quality ?? DEFAULT_QUALITY[normalised];
          const candidates = images.filter(
            (price) =>
              (price.quality === undefined || price.quality === quality) &&
              (price.maxSide === undefined || side <= price.maxSide) &&
              (price.minSide === undefined || side >= price.minSide),
          );
          const found = inEffect(candidates, at);
          return found ? toRate(found, "image") : undefined;
        }
      : undefined,
    audioSecond: find("audio_second", "second"),
    videoSecond: find("video_second", "second"),
    sourceUsed: find("source_used", "source"),
    requests,
  };
}

/** The quality a vendor uses when none is asked for; GPT Image's default ("auto") has no fixed price. */
const DEFAULT_QUALITY: Record<string, string> = { "dall-e-3": "standard", "amazon.nova-canvas-v1:0": "standard" };
