import type { OracleCase } from "../oracle-case.ts";

/** xAI: costs worked out by hand from the vendor's own pages (each case: page, then arithmetic). */
export const XAI_CASES: OracleCase[] = [
  // Page: https://docs.x.ai/docs/models (Grok 4.1 Fast era copy: grok-4-0709 $3.00 / $15.00); aliases per 'Model
  //   Aliases' section
  // grok-4 -> grok-4-0709; input 10,000 x $3.00/M = $0.030000000; output (1,000 completion + 3,000 reasoning) =
  //   4,000 x $15.00/M = $0.060000000; total $0.090000000
  {
    id: "X1-grok-4-alias-with-reasoning",
    receivedAt: "2025-10-15T12:00:00Z",
    request: {
      provider: "xai",
      model: "grok-4",
      usage: [
        {
          type: "tokens",
          metrics: { input_tokens: 10000, output_tokens: 1000, reasoning_tokens: 3000, total_tokens: 14000 },
        },
      ],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.090000000",
  },
  // Page: https://docs.x.ai/developers/pricing (Text API Pricing copy listing grok-4.7, i.e. >= 2026-09-21)
  // prompt 50,000 < 200k: uncached 40,000 x $1.25/M = $0.050000000; cached 10,000 x $0.20/M = $0.002000000; output
  //   (2,000 + 8,000 reasoning) = 10,000 x $2.50/M = $0.025000000; total $0.077000000
  {
    id: "X2-grok-4.20-0309-reasoning-suffixed-id",
    receivedAt: "2026-10-01T12:00:00Z",
    request: {
      provider: "xai",
      model: "grok-4.20-0309-reasoning",
      usage: [
        {
          type: "tokens",
          metrics: {
            input_tokens: 50000,
            cached_tokens: 10000,
            output_tokens: 2000,
            reasoning_tokens: 8000,
            total_tokens: 60000,
          },
        },
      ],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.077000000",
  },
  // Page: https://docs.x.ai/developers/pricing (copy >= 2026-09-21: 'grok-4.3 (>= 200k prompt tokens) $2.50 $0.40
  //   $5.00')
  // >= 200k prompt tokens, whole request at the higher row: uncached 200,000 x $2.50/M = $0.500000000; cached
  //   50,000 x $0.40/M = $0.020000000; output (4,000 + 6,000) = 10,000 x $5.00/M = $0.050000000; total $0.570000000
  {
    id: "X3-grok-4.3-above-200k",
    receivedAt: "2026-10-01T12:00:00Z",
    request: {
      provider: "xai",
      model: "grok-4.3",
      usage: [
        {
          type: "tokens",
          metrics: {
            input_tokens: 250000,
            cached_tokens: 50000,
            output_tokens: 4000,
            reasoning_tokens: 6000,
            total_tokens: 260000,
          },
        },
      ],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.570000000",
  },
  // Page: https://docs.x.ai/developers/pricing (copy >= 2026-09-21)
  // 'requests whose prompt reaches the listed token threshold': 200,000 x $2.50/M = $0.500000000; 1,000 x $5.00/M =
  //   $0.005000000; total $0.505000000
  // Note: the Grok 4.3 model page says 'exceed the 200K context window'; pricing page wording used (see section
  //   2.1)
  {
    id: "X3b-grok-4.3-exactly-200000-inclusive",
    receivedAt: "2026-10-01T12:00:00Z",
    request: {
      provider: "xai",
      model: "grok-4.3",
      usage: [{ type: "tokens", metrics: { input_tokens: 200000, output_tokens: 1000, total_tokens: 201000 } }],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.505000000",
  },
  // Page: https://docs.x.ai/developers/pricing (copy >= 2026-09-21: Batch '20% off standard rates' for grok-4.3)
  // 20% off: input $1.25 x 0.8 = $1.00/M x 100,000 = $0.100000000; output $2.50 x 0.8 = $2.00/M x 10,000 =
  //   $0.020000000; total $0.120000000
  {
    id: "X4-grok-4.3-batch-20-percent",
    receivedAt: "2026-10-01T12:00:00Z",
    request: {
      provider: "xai",
      model: "grok-4.3",
      model_tier: "batch",
      usage: [{ type: "tokens", metrics: { input_tokens: 100000, output_tokens: 10000, total_tokens: 110000 } }],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.120000000",
  },
  // Page: https://docs.x.ai/docs/models?cluster=us-east-1 (Grok 4 launch copy: 'Live Search costs $25 per 1,000
  //   sources used'); grok-3 $3.00/$15.00 from archive.fo/dYUtw (2025-06-02)
  // input 2,000 x $3.00/M = $0.006000000; output 500 x $15.00/M = $0.007500000; live search 4 sources x $25/1,000 =
  //   $0.100000000; total $0.113500000
  {
    id: "X5-grok-3-live-search-sources",
    receivedAt: "2025-08-01T12:00:00Z",
    request: {
      provider: "xai",
      model: "grok-3",
      usage: [
        { type: "tokens", metrics: { input_tokens: 2000, output_tokens: 500, total_tokens: 2500 } },
        { type: "requests", metrics: { count: 1, request_type: "live_search", sources_used: 4 } },
      ],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.113500000",
  },
  // Page: https://docs.x.ai/docs/models (copy 'Last updated: May 7, 2026', Tool Invocation Costs: Web Search $5 /
  //   1k calls) and https://docs.x.ai/developers/pricing
  // input 5,000 x $1.25/M = $0.006250000; output 1,000 x $2.50/M = $0.002500000; web_search 3 x $5/1,000 =
  //   $0.015000000; total $0.023750000
  {
    id: "X6-grok-4.3-web-search-calls",
    receivedAt: "2026-10-01T12:00:00Z",
    request: {
      provider: "xai",
      model: "grok-4.3",
      usage: [
        { type: "tokens", metrics: { input_tokens: 5000, output_tokens: 1000, total_tokens: 6000 } },
        { type: "requests", metrics: { count: 3, request_type: "web_search" } },
      ],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.023750000",
  },
  // Page: https://archive.fo/dYUtw (docs.x.ai/docs/models archived 2025-06-02: grok-2-image-1212 'Each Generated
  //   Image $0.07')
  // 4 images x $0.07 = $0.280000000
  {
    id: "X7-grok-2-image-1212",
    receivedAt: "2025-06-15T12:00:00Z",
    request: {
      provider: "xai",
      model: "grok-2-image-1212",
      usage: [{ type: "images", metrics: { generated: 4 } }],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.280000000",
  },
  // Page: https://docs.x.ai//developers/pricing (May 2026 copy: grok-4-1-fast-non-reasoning $0.20 / $0.05 / $0.50)
  // uncached 40,000 x $0.20/M = $0.008000000; cached 60,000 x $0.05/M = $0.003000000; output 2,000 x $0.50/M =
  //   $0.001000000; total $0.012000000
  // Note: prompt 100,000 < 128K so the unpublished 2025 'higher context' rate cannot apply
  {
    id: "X8-grok-4-1-fast-non-reasoning-cached",
    receivedAt: "2026-04-01T12:00:00Z",
    request: {
      provider: "xai",
      model: "grok-4-1-fast-non-reasoning",
      usage: [
        {
          type: "tokens",
          metrics: { input_tokens: 100000, cached_tokens: 60000, output_tokens: 2000, total_tokens: 102000 },
        },
      ],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.012000000",
  },
];
