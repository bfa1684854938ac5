import type { OracleCase } from "../oracle-case.ts";

/** Anthropic: costs worked out by hand from the vendor's own pages (each case: page, then arithmetic). */
export const ANTHROPIC_2_CASES: OracleCase[] = [
  // Page: https://platform.claude.com/docs/en/about-claude/pricing (AP-1: long context table and 'Prompt caching
  //   multipliers apply on top of long context pricing')
  // prompt = 180,000 + 30,000 = 210,000 > 200,000 -> long context; 1h write = 2 x $6 = $12. input 180,000 x 6,000 =
  //   1,080,000,000; 1h write 30,000 x 12,000 = 360,000,000; output 1,000 x 22,500 = 22,500,000; total
  //   1,462,500,000 nano
  {
    id: "A08-anthropic-long-context-alias-1h-write",
    receivedAt: "2025-12-01T18:00:00Z",
    request: {
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      usage: [
        {
          type: "tokens",
          metrics: {
            input_tokens: 180000,
            output_tokens: 1000,
            cache_creation_input_tokens: 30000,
            cache_creation_1h_input_tokens: 30000,
            total_tokens: 211000,
          },
        },
      ],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "1.462500000",
  },
  // Page: https://platform.claude.com/docs/en/about-claude/pricing#batch-processing (AP-1 Opus 4.1 batch row);
  //   https://platform.claude.com/docs/zh-CN/build-with-claude/batch-processing (AB: all usage at 50%)
  // batch = 50% of all usage: input $7.50, read $1.50 x 0.5 = $0.75, output $37.50. input 10,000 x 7,500 =
  //   75,000,000; read 8,000 x 750 = 6,000,000; output 4,000 x 37,500 = 150,000,000; total 231,000,000 nano
  {
    id: "A09-anthropic-batch-with-cache-read",
    receivedAt: "2025-09-20T02:00:00Z",
    request: {
      provider: "anthropic",
      model: "claude-opus-4-1-20250805",
      model_tier: "batch",
      usage: [
        {
          type: "tokens",
          metrics: { input_tokens: 10000, output_tokens: 4000, cache_read_input_tokens: 8000, total_tokens: 22000 },
        },
      ],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.231000000",
  },
  // Page: https://platform.claude.com/docs/en/about-claude/pricing#long-context-pricing (AP-1: 'The Batch API 50%
  //   discount applies to long context pricing')
  // alias -> claude-sonnet-4-20250514. prompt 248,000 > 200,000 -> long context, then batch 50%: input 6 x 0.5 =
  //   $3.00, 5m write 7.50 x 0.5 = $3.75, output 22.50 x 0.5 = $11.25. input 240,000 x 3,000 = 720,000,000; 5m
  //   write 8,000 x 3,750 = 30,000,000; output 4,000 x 11,250 = 45,000,000; total 795,000,000 nano
  {
    id: "A10-anthropic-batch-plus-long-context",
    receivedAt: "2025-10-20T03:00:00Z",
    request: {
      provider: "anthropic",
      model: "claude-sonnet-4-0",
      model_tier: "batch",
      usage: [
        {
          type: "tokens",
          metrics: {
            input_tokens: 240000,
            output_tokens: 4000,
            cache_creation_input_tokens: 8000,
            total_tokens: 252000,
          },
        },
      ],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.795000000",
  },
  // Page: https://platform.claude.com/docs/en/about-claude/pricing (AP-1: Opus 4.5 row; 'Web search is available on
  //   the Claude API for $10 per 1,000 searches')
  // Opus 4.5: input 3,000 x 5,000 = 15,000,000; read 12,000 x 500 = 6,000,000; output 1,500 x 25,000 = 37,500,000;
  //   web search $10/1,000 = $0.01 = 10,000,000 nano each, 3 x 10,000,000 = 30,000,000; total 88,500,000 nano
  {
    id: "A11-anthropic-web-search-requests",
    receivedAt: "2026-01-10T11:00:00Z",
    request: {
      provider: "anthropic",
      model: "claude-opus-4-5-20251101",
      usage: [
        {
          type: "tokens",
          metrics: { input_tokens: 3000, output_tokens: 1500, cache_read_input_tokens: 12000, total_tokens: 16500 },
        },
        { type: "requests", metrics: { count: 3, request_type: "web_search" } },
      ],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.088500000",
  },
  // Page: https://platform.claude.com/docs/en/about-claude/pricing (AP-1, Claude Haiku 3.5 row: $0.80, read $0.08,
  //   $4)
  // alias -> claude-3-5-haiku-20241022. input 40,000 x 800 = 32,000,000; read 10,000 x 80 = 800,000; output 2,000 x
  //   4,000 = 8,000,000; total 40,800,000 nano
  {
    id: "A12-anthropic-haiku-3-5-latest-alias",
    receivedAt: "2025-07-01T00:00:00Z",
    request: {
      provider: "anthropic",
      model: "claude-3-5-haiku-latest",
      usage: [
        {
          type: "tokens",
          metrics: { input_tokens: 40000, output_tokens: 2000, cache_read_input_tokens: 10000, total_tokens: 52000 },
        },
      ],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.040800000",
  },
  // Page: https://platform.claude.com/docs/en/about-claude/pricing#batch-processing (AP-1, Claude Haiku 3 batch
  //   row)
  // batch Haiku 3: input $0.125, output $0.625. input 100,000 x 125 = 12,500,000; output 20,000 x 625 = 12,500,000;
  //   total 25,000,000 nano
  {
    id: "A13-anthropic-haiku-3-batch",
    receivedAt: "2025-08-05T06:00:00Z",
    request: {
      provider: "anthropic",
      model: "claude-3-haiku-20240307",
      model_tier: "batch",
      usage: [{ type: "tokens", metrics: { input_tokens: 100000, output_tokens: 20000, total_tokens: 120000 } }],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.025000000",
  },
];
