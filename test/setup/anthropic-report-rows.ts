/**
 * Rows of Anthropic's Admin API reports as its reference shows them, for the local stand-in: one usage
 * result grouped by model, one cost result grouped by description.
 */
// The usage report's and the cost report's rows (platform.claude.com/docs/en/api/admin/usage_report and
// .../cost_report, read 2026-11-29); cost amounts are decimal strings of cents.
export const anthropicUsageRow = (model: string, uncached: number, reads: number, output: number) => ({
  api_key_id: null,
  workspace_id: null,
  model,
  service_tier: "standard",
  context_window: "0-200k",
  uncached_input_tokens: uncached,
  cache_read_input_tokens: reads,
  cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
  output_tokens: output,
  server_tool_use: { web_search_requests: 0 },
});
export const anthropicCostRow = (model: string, tokenType: string, amount: string) => ({
  currency: "USD",
  amount,
  workspace_id: null,
  description: `${model} ${tokenType}`,
  cost_type: "tokens",
  context_window: "0-200k",
  model,
  service_tier: "standard",
  token_type: tokenType,
});
