import type { TokensMetrics } from "@usage-ingestion/shared";

/** Audio and image token counts by side; each is a breakdown of its side, never added to it. */
export interface ModalityCounts {
  inputAudio: number;
  inputImage: number;
  outputAudio: number;
  outputImage: number;
  /** The cached part of the input audio and image tokens (a breakdown of `cached_tokens`). */
  cachedAudio: number;
  cachedImage: number;
}

export type ModalitySides = { ok: true; counts: ModalityCounts } | { ok: false; reason: string };

/**
 * Which side an audio or image count belongs to (decisions: "Token breakdowns by modality"):
 * - the side-specific metrics (`input_audio_tokens`, `output_audio_tokens`, `input_image_tokens`,
 *   `output_image_tokens`) win;
 * - otherwise `audio_tokens` / `image_tokens` belong to the side they fit inside (not above that side's
 *   count); one that fits both sides is input; one that fits neither leaves the transaction unpriced;
 * - `cached_audio_tokens` / `cached_image_tokens` are the cached part, checked against `cached_tokens`.
 */
export function modalitySides(metrics: TokensMetrics): ModalitySides {
  const counts: ModalityCounts = {
    inputAudio: metrics.input_audio_tokens ?? 0,
    inputImage: metrics.input_image_tokens ?? 0,
    outputAudio: metrics.output_audio_tokens ?? 0,
    outputImage: metrics.output_image_tokens ?? 0,
    cachedAudio: metrics.cached_audio_tokens ?? 0,
    cachedImage: metrics.cached_image_tokens ?? 0,
  };
  const generic = [
    ["audio_tokens", metrics.audio_tokens, "inputAudio", "outputAudio"],
    ["image_tokens", metrics.image_tokens, "inputImage", "outputImage"],
  ] as const;
  for (const [name, count, input, output] of generic) {
    if (!count) continue;
    const sideSpecific = name === "audio_tokens" ? "_audio_tokens" : "_image_tokens";
    if (metrics[`input${sideSpecific}`] !== undefined || metrics[`output${sideSpecific}`] !== undefined) continue;
    if (count <= metrics.input_tokens) counts[input] = count;
    else if (count <= metrics.output_tokens) counts[output] = count;
    else {
      return {
        ok: false,
        reason: `inconsistent token counts: ${name} (${count}) fit neither input_tokens (${metrics.input_tokens}) nor output_tokens (${metrics.output_tokens}); send input${sideSpecific} or output${sideSpecific}`,
      };
    }
  }
  return { ok: true, counts };
}
