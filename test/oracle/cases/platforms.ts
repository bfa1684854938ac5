import type { OracleCase } from "../oracle-case.ts";
import { request, tokens } from "./request.ts";

/**
 * DeepSeek, Bedrock and Gemini, what the current-prices work adds: ids in the vendors' and platforms' forms
 * (capitals, ARNs, region profiles, `models/`, Google's `-001`), each priced as its own model. PRICE_LIST:
 * https://pricing.us-east-1.amazonaws.com/offers/v1.0/aws/AmazonBedrock/current/us-east-1/index.json (version
 * 20260901205051, the source https://aws.amazon.com/bedrock/pricing/ reads; read 2026-11-22).
 */
export const PLATFORM_CASES: OracleCase[] = [
  // Page: https://api-docs.deepseek.com/quick_start/pricing (copy listing deepseek-flash, read 2026-11-26): "The
  //   legacy names deepseek-v4-flash and deepseek-v4-flash-vision-exp are still accepted, but the corresponding
  //   models have been retired", billed at Flash prices: OFF-PEAK cache hit $0.003, cache miss $0.15, output $0.6.
  //   Peak hours are 01:00-04:00 and 06:00-10:00 UTC on weekdays: Friday 16:00 UTC is off-peak.
  // 40,000 miss x $0.15/M = 0.006000000; 60,000 hit x $0.003/M = 0.000180000; output 10,000 x $0.6/M = 0.006000000;
  //   total 0.012180000
  {
    id: "deepseek-10-v4-flash-capitals",
    receivedAt: "2026-11-20T16:00:00Z",
    request: request("deepseek", "DeepSeek-V4-Flash", [
      tokens({ input_tokens: 100000, cached_tokens: 60000, output_tokens: 10000 }),
    ]),
    expectedCostUsd: "0.012180000",
  },
  // Page: as above. deepseek-reasoner has no price on the page since the 2026-08-16 change; its thinking mode is
  //   deepseek-flash's ("Supports both non-thinking and thinking (default) modes"), same prices, off-peak.
  // 20,000 miss x $0.15/M = 0.003000000; output 30,000 (25,000 reasoning inside) x $0.6/M = 0.018000000; total
  //   0.021000000
  {
    id: "deepseek-11-flash-thinking",
    receivedAt: "2026-11-20T16:00:00Z",
    request: request("deepseek", "deepseek-flash", [
      tokens({ input_tokens: 20000, output_tokens: 30000, reasoning_tokens: 25000 }),
    ]),
    expectedCostUsd: "0.021000000",
  },
  // Page: AWS Price List (PRICE_LIST), Nova Pro flex: $0.0004 / $0.0016 per 1,000 tokens = $0.40 / $1.60 per 1M
  // foundation-model ARN: 100,000 x $0.40/M = 0.040000000; output 10,000 x $1.60/M = 0.016000000; total 0.056000000
  {
    id: "bedrock-10-nova-pro-flex-arn",
    receivedAt: "2026-11-20T16:00:00Z",
    request: request(
      "bedrock",
      "arn:aws:bedrock:us-east-1::foundation-model/amazon.nova-pro-v1:0",
      [tokens({ input_tokens: 100000, output_tokens: 10000 })],
      { model_tier: "flex" },
    ),
    expectedCostUsd: "0.056000000",
  },
  // Page: PRICE_LIST, Nova Pro priority: $1.40 / $5.60 per 1M
  // us. profile: 100,000 x $1.40/M = 0.140000000; output 10,000 x $5.60/M = 0.056000000; total 0.196000000
  {
    id: "bedrock-11-nova-pro-priority-us-profile",
    receivedAt: "2026-11-20T16:00:00Z",
    request: request("bedrock", "us.amazon.nova-pro-v1:0", [tokens({ input_tokens: 100000, output_tokens: 10000 })], {
      model_tier: "priority",
    }),
    expectedCostUsd: "0.196000000",
  },
  // Page: PRICE_LIST, Nova Pro latency optimized: $1.00 / $4.00 per 1M
  // 50,000 x $1/M = 0.050000000; output 5,000 x $4/M = 0.020000000; total 0.070000000
  {
    id: "bedrock-12-nova-pro-latency-optimized",
    receivedAt: "2026-11-20T16:00:00Z",
    request: request("bedrock", "amazon.nova-pro-v1:0", [tokens({ input_tokens: 50000, output_tokens: 5000 })], {
      model_tier: "Latency-Optimized",
    }),
    expectedCostUsd: "0.070000000",
  },
  // Page: PRICE_LIST, Nova 2 Lite flex: $0.165 / $1.375 per 1M
  // 200,000 x $0.165/M = 0.033000000; output 20,000 x $1.375/M = 0.027500000; total 0.060500000
  {
    id: "bedrock-13-nova-2-lite-flex-us-profile",
    receivedAt: "2026-11-20T16:00:00Z",
    request: request(
      "bedrock",
      "us.amazon.nova-2-lite-v1:0",
      [tokens({ input_tokens: 200000, output_tokens: 20000 })],
      { model_tier: "flex" },
    ),
    expectedCostUsd: "0.060500000",
  },
  // Page: PRICE_LIST, Nova Canvas premium (sent as quality "hd"), up to 2048x2048: $0.08 per image
  // 2 x $0.08 = 0.160000000
  {
    id: "bedrock-14-nova-canvas-premium-2048-arn",
    receivedAt: "2026-11-20T16:00:00Z",
    request: request("bedrock", "arn:aws:bedrock:us-east-1::foundation-model/amazon.nova-canvas-v1:0", [
      { type: "images", metrics: { generated: 2, quality: "hd", size_px: 2048 } },
    ]),
    expectedCostUsd: "0.160000000",
  },
  // Page: https://ai.google.dev/gemini-api/docs/pricing (copy last updated 2025-10-02): Imagen 4 Ultra $0.06 per image
  // `models/` and `-001` forms: 2 x $0.06 = 0.120000000
  {
    id: "gemini-10-imagen-4-ultra-versioned",
    receivedAt: "2026-11-20T16:00:00Z",
    request: request("gemini", "models/imagen-4.0-ultra-generate-001", [{ type: "images", metrics: { generated: 2 } }]),
    expectedCostUsd: "0.120000000",
  },
  // Page: as above: Veo 3 Fast $0.15 per second (from the 2025-09-09 cut)
  // 8 s x $0.15 = 1.200000000
  {
    id: "gemini-11-veo-3-fast-versioned",
    receivedAt: "2026-11-20T16:00:00Z",
    request: request("gemini", "veo-3.0-fast-generate-001", [
      { type: "video_seconds", metrics: { processed_seconds: 8 } },
    ]),
    expectedCostUsd: "1.200000000",
  },
  // Page: as above: Gemini 2.5 Flash Image $0.039 per image (1024x1024)
  // 3 x $0.039 = 0.117000000
  {
    id: "gemini-12-2.5-flash-image-resource-name",
    receivedAt: "2026-11-20T16:00:00Z",
    request: request("gemini", "models/gemini-2.5-flash-image", [{ type: "images", metrics: { generated: 3 } }]),
    expectedCostUsd: "0.117000000",
  },
];
