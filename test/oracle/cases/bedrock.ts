import type { OracleCase } from "../oracle-case.ts";

/** Amazon Bedrock: costs worked out by hand from the vendor's own pages (each case: page, then arithmetic). */
export const BEDROCK_CASES: OracleCase[] = [
  // Page: https://platform.claude.com/docs/en/about-claude/pricing (AP-1, third-party platform note) ;
  //   https://aws.amazon.com/bedrock/pricing/ (numbers not in stored copies; AWS-3P transcription agrees:
  //   $0.003/$0.015, write $0.00375, read $0.0003 per 1K)
  // Sonnet 4 predates the regional premium ('Earlier models ... retain their existing pricing'), so us. = list.
  //   input 5,000 x 3,000 = 15,000,000; read 3,000 x 300 = 900,000; 5m write 2,000 x 3,750 = 7,500,000; output
  //   1,000 x 15,000 = 15,000,000; total 38,400,000 nano
  {
    id: "B01-bedrock-claude-sonnet-4-us-prefix-with-cache",
    receivedAt: "2025-09-10T12:00:00Z",
    request: {
      provider: "bedrock",
      model: "us.anthropic.claude-sonnet-4-20250514-v1:0",
      usage: [
        {
          type: "tokens",
          metrics: {
            input_tokens: 5000,
            output_tokens: 1000,
            cache_read_input_tokens: 3000,
            cache_creation_input_tokens: 2000,
            total_tokens: 11000,
          },
        },
      ],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.038400000",
  },
  // Page: https://platform.claude.com/docs/en/about-claude/pricing (AP-1: regional endpoints +10% over global;
  //   Claude API equals global) ;
  //   https://docs.aws.amazon.com/bedrock/latest/userguide/global-cross-region-inference.html
  // global endpoint = list price. input 10,000 x 3,000 = 30,000,000; output 2,000 x 15,000 = 30,000,000; total
  //   60,000,000 nano
  {
    id: "B02-bedrock-claude-sonnet-4-5-global",
    receivedAt: "2025-11-10T12:00:00Z",
    request: {
      provider: "bedrock",
      model: "global.anthropic.claude-sonnet-4-5-20250929-v1:0",
      usage: [{ type: "tokens", metrics: { input_tokens: 10000, output_tokens: 2000, total_tokens: 12000 } }],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.060000000",
  },
  // Page: https://platform.claude.com/docs/en/about-claude/pricing (AP-1: 'Regional endpoints include a 10% premium
  //   over global endpoints', scope Sonnet 4.5 and later)
  // geographic profile = regional = 1.1 x list: input $3.30, output $16.50. input 10,000 x 3,300 = 33,000,000;
  //   output 2,000 x 16,500 = 33,000,000; total 66,000,000 nano
  {
    id: "B03-bedrock-claude-sonnet-4-5-eu-regional",
    receivedAt: "2025-11-10T12:00:00Z",
    request: {
      provider: "bedrock",
      model: "eu.anthropic.claude-sonnet-4-5-20250929-v1:0",
      usage: [{ type: "tokens", metrics: { input_tokens: 10000, output_tokens: 2000, total_tokens: 12000 } }],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.066000000",
  },
  // Page: https://platform.claude.com/docs/en/about-claude/pricing (AP-1: Haiku 4.5 row and regional +10% note)
  // regional = 1.1 x Haiku 4.5: input $1.10, read $0.11, 5m write $1.375, output $5.50. input 2,000 x 1,100 =
  //   2,200,000; read 10,000 x 110 = 1,100,000; 5m write 4,000 x 1,375 = 5,500,000; output 1,000 x 5,500 =
  //   5,500,000; total 14,300,000 nano
  {
    id: "B04-bedrock-claude-haiku-4-5-us-regional-cache",
    receivedAt: "2026-01-15T12:00:00Z",
    request: {
      provider: "bedrock",
      model: "us.anthropic.claude-haiku-4-5-20251001-v1:0",
      usage: [
        {
          type: "tokens",
          metrics: {
            input_tokens: 2000,
            output_tokens: 1000,
            cache_read_input_tokens: 10000,
            cache_creation_input_tokens: 4000,
            total_tokens: 17000,
          },
        },
      ],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.014300000",
  },
  // Page: AWS Price List AmazonBedrock us-east-1 v20260901205051 (AWS-PL); page
  //   https://aws.amazon.com/bedrock/pricing/
  // $0.0008/1K in = $0.80/MTok = 800 nano/token; $0.0032/1K out = 3,200 nano. input 10,000 x 800 = 8,000,000;
  //   output 2,000 x 3,200 = 6,400,000; total 14,400,000 nano
  {
    id: "B05-bedrock-nova-pro",
    receivedAt: "2026-09-15T12:00:00Z",
    request: {
      provider: "bedrock",
      model: "amazon.nova-pro-v1:0",
      usage: [{ type: "tokens", metrics: { input_tokens: 10000, output_tokens: 2000, total_tokens: 12000 } }],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.014400000",
  },
  // Page: AWS Price List AmazonBedrock us-east-1 v20260901205051 (AWS-PL)
  // $0.000035/1K = 35 nano/token in; $0.00014/1K = 140 nano out. input 200,000 x 35 = 7,000,000; output 50,000 x
  //   140 = 7,000,000; total 14,000,000 nano
  {
    id: "B06-bedrock-nova-micro-us-prefix",
    receivedAt: "2026-09-15T12:00:00Z",
    request: {
      provider: "bedrock",
      model: "us.amazon.nova-micro-v1:0",
      usage: [{ type: "tokens", metrics: { input_tokens: 200000, output_tokens: 50000, total_tokens: 250000 } }],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.014000000",
  },
  // Page: AWS Price List AmazonBedrock us-east-1 v20260901205051 (AWS-PL: input_tokens_flex, output_tokens_flex)
  // flex $0.0004/1K in = 400 nano, $0.0016/1K out = 1,600 nano. input 10,000 x 400 = 4,000,000; output 2,000 x
  //   1,600 = 3,200,000; total 7,200,000 nano
  {
    id: "B07-bedrock-nova-pro-flex",
    receivedAt: "2026-09-15T12:00:00Z",
    request: {
      provider: "bedrock",
      model: "amazon.nova-pro-v1:0",
      model_tier: "flex",
      usage: [{ type: "tokens", metrics: { input_tokens: 10000, output_tokens: 2000, total_tokens: 12000 } }],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.007200000",
  },
  // Page: AWS Price List AmazonBedrock us-east-1 v20260901205051 (AWS-PL: input_tokens_priority,
  //   output_tokens_priority)
  // priority $0.0014/1K in = 1,400 nano, $0.0056/1K out = 5,600 nano. input 10,000 x 1,400 = 14,000,000; output
  //   2,000 x 5,600 = 11,200,000; total 25,200,000 nano
  {
    id: "B08-bedrock-nova-pro-priority",
    receivedAt: "2026-09-15T12:00:00Z",
    request: {
      provider: "bedrock",
      model: "amazon.nova-pro-v1:0",
      model_tier: "priority",
      usage: [{ type: "tokens", metrics: { input_tokens: 10000, output_tokens: 2000, total_tokens: 12000 } }],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.025200000",
  },
  // Page: AWS Price List AmazonBedrock us-east-1 v20260901205051 (AWS-PL: input_tokens_latency_optimized,
  //   output_tokens_latency_optimized)
  // latency-optimized $0.001/1K in = 1,000 nano, $0.004/1K out = 4,000 nano. input 10,000 x 1,000 = 10,000,000;
  //   output 2,000 x 4,000 = 8,000,000; total 18,000,000 nano
  {
    id: "B09-bedrock-nova-pro-latency-optimized",
    receivedAt: "2026-09-15T12:00:00Z",
    request: {
      provider: "bedrock",
      model: "us.amazon.nova-pro-v1:0",
      model_tier: "latency-optimized",
      usage: [{ type: "tokens", metrics: { input_tokens: 10000, output_tokens: 2000, total_tokens: 12000 } }],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.018000000",
  },
  // Page: AWS Price List AmazonBedrock us-east-1 v20260901205051 (AWS-PL: text_to_image_1024_standard $0.04/image)
  // text-to-image 1024 standard $0.04 per image = 40,000,000 nano; 2 x 40,000,000 = 80,000,000 nano
  {
    id: "B10-bedrock-nova-canvas-images",
    receivedAt: "2026-06-01T12:00:00Z",
    request: {
      provider: "bedrock",
      model: "amazon.nova-canvas-v1:0",
      usage: [{ type: "images", metrics: { generated: 2, size_px: 1024, quality: "standard" } }],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.080000000",
  },
];
