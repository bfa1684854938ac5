import type { Provider, UsageEntry } from "@usage-ingestion/shared";
import { normaliseTokens } from "./normalise-tokens.ts";
import type { PriceComponent } from "./price-components.ts";
import type { RateCard } from "./rate-types.ts";

/** A quantity to price at one component's rate. */
export interface Measured {
  component: PriceComponent;
  quantity: number;
  /** The line item's name when it is not the component's own (a request's type). */
  item?: string;
  /** Said after "no <noun> price for <model>" when there is no rate. */
  detail?: string;
  /** Replaces the whole "no ... price" reason. */
  missing?: (what: string) => string;
}

export type Measurement = { ok: true; parts: Measured[]; promptTokens: number } | { ok: false; reason: string };

/**
 * What one usage entry asks to be billed, by price component. Tokens follow each vendor's own counting
 * convention (see tokens.ts); `promptTokens` is what long-context tiers are chosen on.
 */
export function measure(provider: Provider, entry: UsageEntry, card: RateCard): Measurement {
  switch (entry.type) {
    case "tokens": {
      const normalised = normaliseTokens(provider, entry.metrics);
      if (!normalised.ok) return normalised;
      const { tokens } = normalised;
      return {
        ok: true,
        promptTokens: tokens.promptTotal,
        parts: [
          { component: "input_mtok", quantity: tokens.input },
          { component: "input_audio_mtok", quantity: tokens.inputAudio },
          { component: "input_image_mtok", quantity: tokens.inputImage },
          { component: "cache_read_mtok", quantity: tokens.cacheRead },
          { component: "cache_audio_read_mtok", quantity: tokens.cacheReadAudio },
          { component: "cache_image_read_mtok", quantity: tokens.cacheReadImage },
          { component: "cache_write_mtok", quantity: tokens.cacheWrite },
          { component: "cache_write_1h_mtok", quantity: tokens.cacheWrite1h },
          { component: "output_mtok", quantity: tokens.output },
          { component: "output_audio_mtok", quantity: tokens.outputAudio },
          { component: "output_image_mtok", quantity: tokens.outputImage },
          { component: "reasoning_mtok", quantity: tokens.reasoning },
        ],
      };
    }
    case "images": {
      const { generated, quality, size_px, width_px, height_px } = entry.metrics;
      const width = width_px ?? size_px;
      const height = height_px ?? size_px;
      const detail = `${quality ? ` at quality "${quality}"` : ""}${width && height ? ` at ${width}x${height}` : ""}`;
      return done([{ component: "image", quantity: generated, detail }]);
    }
    case "audio_seconds": {
      const { input_seconds, output_seconds, total_seconds } = entry.metrics;
      const perSide = card.rates.audio_input_second || card.rates.audio_output_second;
      if (perSide && (input_seconds !== undefined || output_seconds !== undefined)) {
        return done([
          { component: "audio_input_second", quantity: input_seconds ?? 0 },
          { component: "audio_output_second", quantity: output_seconds ?? 0 },
        ]);
      }
      const seconds = total_seconds ?? (input_seconds ?? 0) + (output_seconds ?? 0);
      return done([{ component: "audio_second", quantity: seconds }]);
    }
    case "video_seconds":
      return done([{ component: "video_second", quantity: entry.metrics.processed_seconds }]);
    case "requests": {
      const { count, request_type, sources_used } = entry.metrics;
      const type = request_type ?? "default";
      return done([
        {
          component: "per_request",
          quantity: count,
          item: type,
          missing: (what) => `no price for ${type} requests for ${what}`,
        },
        { component: "source_used", quantity: sources_used ?? 0 },
      ]);
    }
    case "custom":
      return done([{ component: "unit", quantity: entry.metrics.units }]);
  }
}

const done = (parts: Measured[]): Measurement => ({ ok: true, parts, promptTokens: 0 });
