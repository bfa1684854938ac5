import type { Provider, TokensMetrics } from "@usage-ingestion/shared";

/** Token quantities by the rate they are billed at, after each vendor's own counting convention. */
export interface NormalisedTokens {
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
  reasoning: number;
  /** Everything sent as the prompt; long-context tiers are chosen on it. */
  promptTotal: number;
}

export type TokenNormalisation = { ok: true; tokens: NormalisedTokens } | { ok: false; reason: string };

/** Vendors whose `input_tokens` already include the cached ones (cached is a breakdown of input). */
const CACHED_INSIDE_INPUT = new Set<Provider>(["openai", "gemini", "xai", "deepseek", "custom"]);
/** Vendors that report reasoning/thinking tokens outside `output_tokens`. */
const REASONING_OUTSIDE_OUTPUT = new Set<Provider>(["gemini", "xai"]);

/**
 * Clients send the counts their provider reported, as that provider means them:
 * - openai, gemini, xai, deepseek: `input_tokens` include `cached_tokens` (alias `cache_read_input_tokens`).
 * - anthropic, bedrock: `input_tokens` exclude `cache_read_input_tokens` and `cache_creation_input_tokens`.
 * - reasoning (`reasoning_tokens`, or `thinking_tokens`) is billed as output: inside `output_tokens` for
 *   openai, anthropic, bedrock, deepseek; outside it, so added, for gemini and xai.
 * `total_tokens` is never priced; `prompt_tokens`/`completion_tokens` only restate input and output.
 * `custom` follows the first convention.
 */
export function normaliseTokens(provider: Provider, metrics: TokensMetrics): TokenNormalisation {
  const reasoning = metrics.reasoning_tokens ?? metrics.thinking_tokens ?? 0;
  const reasoningOutside = REASONING_OUTSIDE_OUTPUT.has(provider);
  if (!reasoningOutside && reasoning > metrics.output_tokens) {
    return {
      ok: false,
      reason: `inconsistent token counts: reasoning tokens (${reasoning}) exceed output_tokens (${metrics.output_tokens}), which include them for ${provider}`,
    };
  }
  const output = reasoningOutside ? metrics.output_tokens : metrics.output_tokens - reasoning;

  if (CACHED_INSIDE_INPUT.has(provider)) {
    const cached = metrics.cached_tokens ?? metrics.cache_read_input_tokens ?? 0;
    if (cached > metrics.input_tokens) {
      return {
        ok: false,
        reason: `inconsistent token counts: cached tokens (${cached}) exceed input_tokens (${metrics.input_tokens}), which include them for ${provider}`,
      };
    }
    return {
      ok: true,
      tokens: {
        input: metrics.input_tokens - cached,
        cacheRead: cached,
        cacheWrite: 0,
        output,
        reasoning,
        promptTotal: metrics.input_tokens,
      },
    };
  }
  const cacheRead = metrics.cache_read_input_tokens ?? metrics.cached_tokens ?? 0;
  const cacheWrite = metrics.cache_creation_input_tokens ?? 0;
  return {
    ok: true,
    tokens: {
      input: metrics.input_tokens,
      cacheRead,
      cacheWrite,
      output,
      reasoning,
      promptTotal: metrics.input_tokens + cacheRead + cacheWrite,
    },
  };
}
