import type { VendorUsage } from "../types.ts";
import {
  countAt,
  type Json,
  modalityMetrics,
  objectAt,
  stringAt,
  tokensEntry,
  usageObject,
  vendorUsage,
} from "./common.ts";

/**
 * Realtime `response.done`: `input_tokens` include the cached ones; the text/audio/image breakdowns
 * go to the side-specific metrics, and cached audio to `cached_audio_tokens`.
 */
export function fromOpenAIRealtime(response: Json, model?: string): VendorUsage {
  const usage = usageObject(response.usage, "response.usage");
  const input = objectAt(usage.input_token_details);
  const cached = objectAt(input.cached_tokens_details);
  const output = objectAt(usage.output_token_details);
  return vendorUsage(
    "openai",
    stringAt(response.model) ?? model,
    [
      tokensEntry(
        {
          input_tokens: countAt(usage.input_tokens),
          output_tokens: countAt(usage.output_tokens),
          total_tokens: countAt(usage.total_tokens),
        },
        {
          cached_tokens: countAt(input.cached_tokens),
          cached_audio_tokens: countAt(cached.audio_tokens),
          ...modalityMetrics("input", { audio: countAt(input.audio_tokens), image: countAt(input.image_tokens) }),
          ...modalityMetrics("output", { audio: countAt(output.audio_tokens) }),
        },
      ),
    ],
    usage,
    response.id,
  );
}

/**
 * Image generation (GPT Image): billed by tokens. Input splits into text and image tokens; the output
 * tokens are image tokens (unless the response breaks them down itself). No per-image entry is added:
 * the tokens are the price, and an `images` entry besides them would bill the same images twice.
 */
export function fromOpenAIImages(body: Json, model?: string): VendorUsage {
  const usage = usageObject(body.usage, "usage (DALL-E responses carry none; only GPT Image models report usage)");
  const input = objectAt(usage.input_tokens_details);
  const output = objectAt(usage.output_tokens_details);
  const outputTokens = countAt(usage.output_tokens);
  return vendorUsage(
    "openai",
    stringAt(body.model) ?? model,
    [
      tokensEntry(
        {
          input_tokens: countAt(usage.input_tokens),
          output_tokens: outputTokens,
          total_tokens: countAt(usage.total_tokens),
        },
        {
          ...modalityMetrics("input", { image: countAt(input.image_tokens) }),
          ...modalityMetrics("output", { image: countAt(output.image_tokens) ?? outputTokens }),
        },
      ),
    ],
    usage,
    body.id,
  );
}

/**
 * Audio: a transcription's usage (`type: "tokens"` with audio input tokens, or `type: "duration"` in
 * seconds, from the JSON response or the `transcript.text.done` event) and a speech stream's
 * `speech.audio.done` usage (text in, audio tokens out).
 */
export function fromOpenAIAudio(body: Json, model?: string): VendorUsage {
  const usage = usageObject(body.usage, "usage");
  const totals = {
    input_tokens: countAt(usage.input_tokens),
    output_tokens: countAt(usage.output_tokens),
    total_tokens: countAt(usage.total_tokens),
  };
  if (usage.type === "duration") {
    const seconds = countAt(usage.seconds);
    return vendorUsage(
      "openai",
      model,
      [{ type: "audio_seconds", metrics: { input_seconds: seconds ?? 0 } }],
      usage,
      undefined,
    );
  }
  if (body.type === "speech.audio.done") {
    return vendorUsage(
      "openai",
      model,
      [tokensEntry(totals, modalityMetrics("output", { audio: totals.output_tokens }))],
      usage,
      undefined,
    );
  }
  const input = objectAt(usage.input_token_details);
  return vendorUsage(
    "openai",
    stringAt(body.model) ?? model,
    [tokensEntry(totals, modalityMetrics("input", { audio: countAt(input.audio_tokens) }))],
    usage,
    undefined,
  );
}
