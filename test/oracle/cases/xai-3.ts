import type { OracleCase } from "../oracle-case.ts";
import { request, tokens } from "./request.ts";

/**
 * xAI: Grok Imagine per image, and the newer text models against the pricing page. Imagine: Page: https://docs.x.ai/docs/guides/video-generation (Imagine overview, read
 * 2026-11-26): "Image Generation ... Pricing $0.02 / image, Resolution 1K & 2K"; "Image generation uses flat
 * per-image pricing regardless of prompt length. Each generated image incurs a fixed fee." Its examples generate
 * with grok-imagine-image.
 */
export const XAI_3_CASES: OracleCase[] = [
  // 1 x $0.02 = 0.020000000
  {
    id: "xai-20-grok-imagine-image-one",
    receivedAt: "2026-11-26T12:00:00Z",
    request: request("xai", "grok-imagine-image", [{ type: "images", metrics: { generated: 1 } }]),
    expectedCostUsd: "0.020000000",
  },
  // Up to 10 images a request: 10 x $0.02 = 0.200000000
  {
    id: "xai-21-grok-imagine-image-ten",
    receivedAt: "2026-11-26T12:00:00Z",
    request: request("xai", "grok-imagine-image", [{ type: "images", metrics: { generated: 10 } }]),
    expectedCostUsd: "0.200000000",
  },
  // 2K resolution, the same flat price: 3 x $0.02 = 0.060000000
  {
    id: "xai-22-grok-imagine-image-2k-same-price",
    receivedAt: "2026-11-26T12:00:00Z",
    request: request("xai", "grok-imagine-image", [
      { type: "images", metrics: { generated: 3, width_px: 2048, height_px: 2048 } },
    ]),
    expectedCostUsd: "0.060000000",
  },
  // xAI's -latest alias: 2 x $0.02 = 0.040000000
  {
    id: "xai-23-grok-imagine-image-latest-alias",
    receivedAt: "2026-11-26T12:00:00Z",
    request: request("xai", "grok-imagine-image-latest", [{ type: "images", metrics: { generated: 2 } }]),
    expectedCostUsd: "0.040000000",
  },
  // Page: https://docs.x.ai/developers/pricing (read 2026-11-26), Text API, per 1M tokens, short / long context
  //   "Long context >= 200k tokens": grok-4.6 $2.00 / $0.50 / $6.00, long $4.00 / $1.00 / $12.00; grok-4.5 $2.00 /
  //   $0.30 / $6.00, long $4.00 / $0.60 / $12.00; grok-build-0.1 $1.00 / $0.20 / $2.00, long $2.00 / $0.40 / $4.00
  //   (input / cached / output). "Models with long context pricing bill the long context rates for all tokens in a
  //   request once its prompt reaches the model's long context threshold." Cached tokens are part of the prompt;
  //   reasoning tokens are billed as output.
  // grok-4.6, prompt 200,000 reaches 200k: 150,000 x $4/M = 0.600000000; 50,000 cached x $1/M = 0.050000000; output
  //   (1,000 + 500 reasoning) x $12/M = 0.018000000; total 0.668000000
  {
    id: "xai-24-grok-4.6-prompt-200000-long",
    receivedAt: "2026-11-25T12:00:00Z",
    request: request("xai", "grok-4.6", [
      tokens({ input_tokens: 200000, cached_tokens: 50000, output_tokens: 1000, reasoning_tokens: 500 }),
    ]),
    expectedCostUsd: "0.668000000",
  },
  // grok-4.5, prompt 199,999: short. 150,000 x $2/M = 0.300000000; 49,999 cached x $0.30/M = 0.014999700; output
  //   1,000 x $6/M = 0.006000000; total 0.320999700
  {
    id: "xai-25-grok-4.5-prompt-199999-short",
    receivedAt: "2026-11-25T12:00:00Z",
    request: request("xai", "grok-4.5", [tokens({ input_tokens: 199999, cached_tokens: 49999, output_tokens: 1000 })]),
    expectedCostUsd: "0.320999700",
  },
  // grok-4.5, prompt 300,000: long. 200,000 x $4/M = 0.800000000; 100,000 cached x $0.60/M = 0.060000000; output
  //   2,000 x $12/M = 0.024000000; total 0.884000000
  {
    id: "xai-26-grok-4.5-prompt-300000-long",
    receivedAt: "2026-11-25T12:00:00Z",
    request: request("xai", "grok-4.5", [tokens({ input_tokens: 300000, cached_tokens: 100000, output_tokens: 2000 })]),
    expectedCostUsd: "0.884000000",
  },
  // grok-build-0.1, prompt 10,000: 8,000 x $1/M = 0.008000000; 2,000 cached x $0.20/M = 0.000400000; output 5,000 x
  //   $2/M = 0.010000000; total 0.018400000
  {
    id: "xai-27-grok-build-0.1-short",
    receivedAt: "2026-11-25T12:00:00Z",
    request: request("xai", "grok-build-0.1", [
      tokens({ input_tokens: 10000, cached_tokens: 2000, output_tokens: 5000 }),
    ]),
    expectedCostUsd: "0.018400000",
  },
  // grok-build-0.1, prompt 250,000: long. 250,000 x $2/M = 0.500000000; output 10,000 x $4/M = 0.040000000; total
  //   0.540000000
  {
    id: "xai-28-grok-build-0.1-long",
    receivedAt: "2026-11-25T12:00:00Z",
    request: request("xai", "grok-build-0.1", [tokens({ input_tokens: 250000, output_tokens: 10000 })]),
    expectedCostUsd: "0.540000000",
  },
];
