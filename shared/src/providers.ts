export const PROVIDERS = ["openai", "gemini", "bedrock", "anthropic", "xai", "deepseek", "custom"] as const;
export type Provider = (typeof PROVIDERS)[number];
