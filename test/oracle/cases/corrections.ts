import type { OracleCase } from "../oracle-case.ts";

/** Cases for the corrections found by checking our prices against a second source (each: page, then arithmetic). */
export const CORRECTION_CASES: OracleCase[] = [
  // Page: https://platform.claude.com/docs/en/about-claude/pricing (read 2026-11-22): Claude Sonnet 4.5 $3 input,
  //   $0.30 cache hits, $15 output; "Regional endpoints include a 10% premium over global endpoints" (Sonnet 4.5
  //   and later): $3.30 / $0.33 / $16.50. On Bedrock every prompt above 200K tokens stays unpriced (AWS's Price List
  //   states no long-context rate); exactly 200,000 (input 150,000 + cache reads 50,000) is the base rate.
  //   input 150,000 x 3,300 = 495,000,000; cache reads 50,000 x 330 = 16,500,000; output 1,000 x 16,500 =
  //   16,500,000; total 528,000,000 nano
  {
    id: "C01-bedrock-sonnet-4-5-regional-prompt-200000",
    receivedAt: "2026-11-01T12:00:00Z",
    request: {
      provider: "bedrock",
      model: "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
      usage: [
        {
          type: "tokens",
          metrics: {
            input_tokens: 150_000,
            cache_read_input_tokens: 50_000,
            output_tokens: 1000,
            total_tokens: 201_000,
          },
        },
      ],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.528000000",
  },
  // Page: https://docs.x.ai/docs/models (archive.fo/MgzHf, copy of 2024-12-17): "The grok-2 and grok-2-latest model
  //   names are aliased to the latest chat models, currently grok-2-1212"; grok-2-1212 "Text input $2.00 ...
  //   Completion $10.00" per million tokens. A call received 2025-01-10 is grok-2-1212's.
  //   input 1,000,000 x 2,000 = 2,000,000,000; output 100,000 x 10,000 = 1,000,000,000; total 3,000,000,000 nano
  {
    id: "C02-grok-2-latest-alias-as-grok-2-1212",
    receivedAt: "2025-01-10T12:00:00Z",
    request: {
      provider: "xai",
      model: "grok-2-latest",
      usage: [
        { type: "tokens", metrics: { input_tokens: 1_000_000, output_tokens: 100_000, total_tokens: 1_100_000 } },
      ],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "3.000000000",
  },
];
