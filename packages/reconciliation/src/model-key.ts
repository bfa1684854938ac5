/**
 * The name a model is compared under: the vendors' reports name the dated snapshot
 * (`gpt-4o-mini-2024-07-18`, `claude-sonnet-4-5-20250929`) where a client may have sent the alias, so a
 * trailing date is dropped on both sides, and the names seen are kept on the row. A Bedrock model id also
 * loses its inference profile's geography, its provider and its version (`us.anthropic.claude-sonnet-4-5-
 * 20250929-v1:0` is `claude-sonnet-4-5`), which is the name Cost Explorer's usage types reduce to
 * (bedrock-usage-types.ts).
 */
export const modelKey = (model: string): string =>
  model
    .trim()
    .toLowerCase()
    .replace(/^(?:us|eu|apac|jp|au|ca|us-gov|global)\.(?=[a-z0-9-]+\.)/, "")
    .replace(/^(?:anthropic|amazon|meta|mistral|cohere|ai21|deepseek|openai|qwen|writer|google|nvidia|minimax)\./, "")
    .replace(/-v?\d+:\d+$/, "")
    .replace(/-(?:\d{4}-\d{2}-\d{2}|\d{8})$/, "");
