import type { OracleCase } from "../oracle-case.ts";
import { request, tokens } from "./request.ts";

/**
 * Anthropic fast mode (`speed: "fast"`, sent as `model_tier: "fast"`), from Anthropic's own pages (read
 * 2026-11-26):
 * - https://platform.claude.com/docs/zh-CN/build-with-claude/fast-mode (Claude Opus 4.6): "| ≤ 200K 输入 token |
 *   $30 / MTok | $150 / MTok | | > 200K 输入 token | $60 / MTok | $225 / MTok |" (≤ 200K is standard, so 200,000
 *   input tokens are at $30 and 200,001 at $60, for the whole call).
 * - https://code.claude.com/docs/zh-CN/fast-mode.md: "快速模式定价在 Opus 4.8 上为 $10/$50 MTok，在 Opus 4.7 上为
 *   $30/$150 MTok" (input / output); Opus 4.7's fast mode removed on July 24, 2026.
 */
export const ANTHROPIC_5_CASES: OracleCase[] = [
  // Opus 4.8 fast: 10,000 x $10 = 0.100000000; output 2,000 x $50 = 0.100000000; total 0.200000000
  {
    id: "anthropic-50-opus-4-8-fast",
    receivedAt: "2026-11-20T09:00:00Z",
    request: request("anthropic", "claude-opus-4-8", [tokens({ input_tokens: 10000, output_tokens: 2000 })], {
      model_tier: "fast",
    }),
    expectedCostUsd: "0.200000000",
  },
  // Opus 4.8 fast, Vertex AI's id form and the tier in another case: 1,000 x $10 = 0.010000000; output 1,000 x $50
  //   = 0.050000000; total 0.060000000
  {
    id: "anthropic-51-opus-4-8-fast-vertex-id",
    receivedAt: "2026-11-20T09:00:00Z",
    request: request("anthropic", "claude-opus-4-8@20260528", [tokens({ input_tokens: 1000, output_tokens: 1000 })], {
      model_tier: "Fast",
    }),
    expectedCostUsd: "0.060000000",
  },
  // Opus 4.7 fast, before its removal: 10,000 x $30 = 0.300000000; output 1,000 x $150 = 0.150000000; total
  //   0.450000000
  {
    id: "anthropic-52-opus-4-7-fast",
    receivedAt: "2026-07-01T09:00:00Z",
    request: request("anthropic", "claude-opus-4-7", [tokens({ input_tokens: 10000, output_tokens: 1000 })], {
      model_tier: "fast",
    }),
    expectedCostUsd: "0.450000000",
  },
  // Opus 4.6 fast, 200,000 input tokens: "≤ 200K", the lower row. 200,000 x $30 = 6.000000000; output 1,000 x $150
  //   = 0.150000000; total 6.150000000
  {
    id: "anthropic-53-opus-4-6-fast-at-200000",
    receivedAt: "2026-03-02T09:00:00Z",
    request: request("anthropic", "claude-opus-4-6", [tokens({ input_tokens: 200000, output_tokens: 1000 })], {
      model_tier: "fast",
    }),
    expectedCostUsd: "6.150000000",
  },
  // Opus 4.6 fast, 200,001 input tokens: "> 200K", the whole call in the upper row. 200,001 x $60 = 12.000060000;
  //   output 1,000 x $225 = 0.225000000; total 12.225060000
  {
    id: "anthropic-54-opus-4-6-fast-at-200001",
    receivedAt: "2026-03-02T09:00:00Z",
    request: request("anthropic", "claude-opus-4-6", [tokens({ input_tokens: 200001, output_tokens: 1000 })], {
      model_tier: "fast",
    }),
    expectedCostUsd: "12.225060000",
  },
];
