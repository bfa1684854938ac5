/** The vendors an organization can connect for reconciliation (docs/reconciliation.md). */
export const VENDORS = ["openai", "anthropic", "gemini", "bedrock"] as const;
