import { type Provider, TOKEN_CONVENTIONS, type TokensMetrics } from "@usage-ingestion/shared";
import { type ModalityCounts, modalitySides } from "./split-modalities.ts";

/** Token quantities by the rate they are billed at, after each vendor's own counting convention. */
export interface NormalisedTokens {
  input: number;
  inputAudio: number;
  inputImage: number;
  cacheRead: number;
  cacheReadAudio: number;
  cacheReadImage: number;
  /** Five-minute cache writes. */
  cacheWrite: number;
  cacheWrite1h: number;
  output: number;
  outputAudio: number;
  outputImage: number;
  reasoning: number;
  /** Everything sent as the prompt; long-context tiers are chosen on it. */
  promptTotal: number;
}

export type TokenNormalisation = { ok: true; tokens: NormalisedTokens } | { ok: false; reason: string };

/** Where each vendor's counts sit: defined once in shared (decisions, "Token counts"). */
const CACHED_INSIDE_INPUT = TOKEN_CONVENTIONS.cachedInsideInput;
const WRITES_INSIDE_INPUT = TOKEN_CONVENTIONS.writesInsideInput;
const REASONING_OUTSIDE_OUTPUT = TOKEN_CONVENTIONS.reasoningOutsideOutput;

const inconsistent = (text: string): TokenNormalisation => ({
  ok: false,
  reason: `inconsistent token counts: ${text}`,
});

/**
 * Clients send the counts their provider reported, as that provider means them:
 * - openai, gemini, xai, deepseek: `input_tokens` include `cached_tokens` (alias `cache_read_input_tokens`);
 *   openai's also include its cache writes, sent as `cache_creation_input_tokens`.
 * - anthropic, bedrock: `input_tokens` exclude `cache_read_input_tokens` and `cache_creation_input_tokens`;
 *   `cache_creation_1h_input_tokens` is the one-hour part of `cache_creation_input_tokens`.
 * - reasoning (`reasoning_tokens`, or `thinking_tokens`) is billed as output: inside `output_tokens` for
 *   openai, anthropic, bedrock, deepseek; outside it, so added, for gemini and xai.
 * - audio and image tokens are breakdowns of their side (see modalities.ts), never added again; the rest
 *   of each side is text.
 * `total_tokens` is never priced; `prompt_tokens`/`completion_tokens` only restate input and output.
 * `custom` follows the first convention.
 */
export function normaliseTokens(provider: Provider, metrics: TokensMetrics): TokenNormalisation {
  const reasoning = metrics.reasoning_tokens ?? metrics.thinking_tokens ?? 0;
  const reasoningOutside = REASONING_OUTSIDE_OUTPUT.has(provider);
  if (!reasoningOutside && reasoning > metrics.output_tokens) {
    return inconsistent(
      `reasoning tokens (${reasoning}) exceed output_tokens (${metrics.output_tokens}), which include them for ${provider}`,
    );
  }
  const sides = modalitySides(metrics);
  if (!sides.ok) return sides;
  const modal: ModalityCounts = sides.counts;

  const cachedInside = CACHED_INSIDE_INPUT.has(provider);
  const cached = cachedInside
    ? (metrics.cached_tokens ?? metrics.cache_read_input_tokens ?? 0)
    : (metrics.cache_read_input_tokens ?? metrics.cached_tokens ?? 0);
  if (cachedInside && cached > metrics.input_tokens) {
    return inconsistent(
      `cached tokens (${cached}) exceed input_tokens (${metrics.input_tokens}), which include them for ${provider}`,
    );
  }
  if (modal.cachedAudio + modal.cachedImage > cached) {
    return inconsistent(
      `cached audio and image tokens (${modal.cachedAudio + modal.cachedImage}) exceed the cached tokens (${cached})`,
    );
  }
  // Where cached tokens sit inside input, the input side's audio and image counts include their cached part.
  const uncachedAudio = cachedInside ? modal.inputAudio - modal.cachedAudio : modal.inputAudio;
  const uncachedImage = cachedInside ? modal.inputImage - modal.cachedImage : modal.inputImage;
  if (uncachedAudio < 0 || uncachedImage < 0) {
    return inconsistent("cached audio or image tokens exceed the input audio or image tokens that include them");
  }
  // OpenAI's cache writes, like its cached tokens, are a part of input_tokens (decisions: "Cache writes on OpenAI").
  const writtenInside = WRITES_INSIDE_INPUT.has(provider) ? (metrics.cache_creation_input_tokens ?? 0) : 0;
  if (writtenInside > 0 && cached + writtenInside > metrics.input_tokens) {
    return inconsistent(
      `cached tokens (${cached}) and cache writes (${writtenInside}) exceed input_tokens (${metrics.input_tokens}), which include them for ${provider}`,
    );
  }
  const uncached = cachedInside ? metrics.input_tokens - cached - writtenInside : metrics.input_tokens;
  const uncachedText = uncached - uncachedAudio - uncachedImage;
  if (uncachedText < 0) {
    return inconsistent(
      `input audio and image tokens (${uncachedAudio + uncachedImage}) exceed the uncached input tokens (${uncached})`,
    );
  }

  const outputSide = reasoningOutside ? metrics.output_tokens : metrics.output_tokens - reasoning;
  const outputText = outputSide - modal.outputAudio - modal.outputImage;
  if (outputText < 0) {
    return inconsistent(
      `output audio and image tokens (${modal.outputAudio + modal.outputImage}) exceed the output tokens (${outputSide}${reasoningOutside ? "" : " besides reasoning"})`,
    );
  }

  const cacheWrite = cachedInside ? writtenInside : (metrics.cache_creation_input_tokens ?? 0);
  const cacheWrite1h = cachedInside ? 0 : (metrics.cache_creation_1h_input_tokens ?? 0);
  if (cacheWrite1h > cacheWrite) {
    return inconsistent(
      `cache_creation_1h_input_tokens (${cacheWrite1h}) exceed cache_creation_input_tokens (${cacheWrite}), which include them`,
    );
  }
  return {
    ok: true,
    tokens: {
      input: uncachedText,
      inputAudio: uncachedAudio,
      inputImage: uncachedImage,
      cacheRead: cached - modal.cachedAudio - modal.cachedImage,
      cacheReadAudio: modal.cachedAudio,
      cacheReadImage: modal.cachedImage,
      cacheWrite: cacheWrite - cacheWrite1h,
      cacheWrite1h,
      output: outputText,
      outputAudio: modal.outputAudio,
      outputImage: modal.outputImage,
      reasoning,
      promptTotal: cachedInside ? metrics.input_tokens : metrics.input_tokens + cached + cacheWrite,
    },
  };
}
