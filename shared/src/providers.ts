export const PROVIDERS = ["openai", "gemini", "bedrock", "anthropic", "xai", "deepseek", "custom"] as const;
export type Provider = (typeof PROVIDERS)[number];

/**
 * Where each vendor's own token counts sit (design decisions, "Token counts: each vendor's own
 * convention"): whose `input_tokens` include the cache reads, whose include the cache writes, and whose
 * reasoning tokens are reported outside `output_tokens`. Anything converting another convention into
 * the vendors' own (the OTLP mapping) reads them here.
 */
export const TOKEN_CONVENTIONS: {
  cachedInsideInput: ReadonlySet<Provider>;
  writesInsideInput: ReadonlySet<Provider>;
  reasoningOutsideOutput: ReadonlySet<Provider>;
} = {
  cachedInsideInput: new Set(["openai", "gemini", "xai", "deepseek", "custom"]),
  writesInsideInput: new Set(["openai"]),
  reasoningOutsideOutput: new Set(["gemini", "xai"]),
};
