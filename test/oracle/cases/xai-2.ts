import type { OracleCase } from "../oracle-case.ts";
import { request, tokens } from "./request.ts";

/**
 * xAI, what the current-prices work adds: the long-context threshold as the page words it ("requests whose
 * prompt reaches the listed token threshold", >= 200k: 200,000 is long), xAI's id forms, and the batch and
 * priority tiers. Page: https://docs.x.ai/developers/pricing (the copy listing grok-4.7, so of 2026-09-21 or
 * later): grok-4.7 $2.00 input / $0.50 cached / $6.00 output, >= 200k prompt $4.00 / $1.00 / $12.00;
 * grok-4.20-multi-agent $1.25 / $0.20 / $2.50, >= 200k $2.50 / $0.40 / $5.00; batch: 20% off grok-4.3 and
 * grok-4.20 (reasoning, non-reasoning, multi-agent), "Models not listed above have no batch discount";
 * priority: 2x every token type. Reasoning tokens are reported outside completion tokens and billed as output.
 */
export const XAI_2_CASES: OracleCase[] = [
  // prompt 200,000 reaches 200k: long. 150,000 x $4/M = 0.600000000; 50,000 cached x $1/M = 0.050000000; output
  //   (1,000 + 500 reasoning) x $12/M = 0.018000000; total 0.668000000
  {
    id: "xai-10-grok-4.7-prompt-200000-long",
    receivedAt: "2026-11-23T08:00:00Z",
    request: request("xai", "grok-4.7", [
      tokens({ input_tokens: 200000, cached_tokens: 50000, output_tokens: 1000, reasoning_tokens: 500 }),
    ]),
    expectedCostUsd: "0.668000000",
  },
  // prompt 199,999: standard. 150,000 x $2/M = 0.300000000; 49,999 cached x $0.50/M = 0.024999500; output 1,500 x
  //   $6/M = 0.009000000; total 0.333999500
  {
    id: "xai-11-grok-4.7-prompt-199999-standard",
    receivedAt: "2026-11-23T08:00:00Z",
    request: request("xai", "grok-4.7", [
      tokens({ input_tokens: 199999, cached_tokens: 49999, output_tokens: 1000, reasoning_tokens: 500 }),
    ]),
    expectedCostUsd: "0.333999500",
  },
  // The -latest alias: 10,000 x $2/M = 0.020000000; output 2,000 x $6/M = 0.012000000; total 0.032000000
  {
    id: "xai-12-grok-4.7-latest-alias",
    receivedAt: "2026-11-23T08:00:00Z",
    request: request("xai", "grok-4.7-latest", [tokens({ input_tokens: 10000, output_tokens: 2000 })]),
    expectedCostUsd: "0.032000000",
  },
  // Priority, 2x: 8,000 x $4/M = 0.032000000; 2,000 cached x $1/M = 0.002000000; output 1,000 x $12/M =
  //   0.012000000; total 0.046000000
  {
    id: "xai-13-grok-4.7-priority",
    receivedAt: "2026-11-23T08:00:00Z",
    request: request("xai", "grok-4.7", [tokens({ input_tokens: 10000, cached_tokens: 2000, output_tokens: 1000 })], {
      model_tier: "priority",
    }),
    expectedCostUsd: "0.046000000",
  },
  // Batch on a model the discount does not list: the list price. 10,000 x $2/M = 0.020000000; output 1,000 x $6/M =
  //   0.006000000; total 0.026000000
  {
    id: "xai-14-grok-4.7-batch-no-discount",
    receivedAt: "2026-11-23T08:00:00Z",
    request: request("xai", "grok-4.7", [tokens({ input_tokens: 10000, output_tokens: 1000 })], {
      model_tier: "batch",
    }),
    expectedCostUsd: "0.026000000",
  },
  // Batch 20% off multi-agent: $1.00 / $0.16 / $2.00. 80,000 x $1/M = 0.080000000; 20,000 cached x $0.16/M =
  //   0.003200000; output (10,000 + 5,000 reasoning) x $2/M = 0.030000000; total 0.113200000
  {
    id: "xai-15-grok-4.20-multi-agent-batch",
    receivedAt: "2026-11-23T08:00:00Z",
    request: request(
      "xai",
      "grok-4.20-multi-agent",
      [tokens({ input_tokens: 100000, cached_tokens: 20000, output_tokens: 10000, reasoning_tokens: 5000 })],
      { model_tier: "batch" },
    ),
    expectedCostUsd: "0.113200000",
  },
  // prompt 200,000 reaches 200k: 200,000 x $2.50/M = 0.500000000; output 1,000 x $5/M = 0.005000000; total
  //   0.505000000
  {
    id: "xai-16-grok-4.20-multi-agent-prompt-200000-long",
    receivedAt: "2026-11-23T08:00:00Z",
    request: request("xai", "grok-4.20-multi-agent", [tokens({ input_tokens: 200000, output_tokens: 1000 })]),
    expectedCostUsd: "0.505000000",
  },
  // The dated form grok-4.20-multi-agent-0309 at 199,999: 199,999 x $1.25/M = 0.249998750; output 1,000 x $2.50/M =
  //   0.002500000; total 0.252498750
  {
    id: "xai-17-grok-4.20-multi-agent-dated-prompt-199999",
    receivedAt: "2026-11-23T08:00:00Z",
    request: request("xai", "grok-4.20-multi-agent-0309", [tokens({ input_tokens: 199999, output_tokens: 1000 })]),
    expectedCostUsd: "0.252498750",
  },
  // xAI's snapshot and mode suffixes on grok-4.7: 1,000 x $2/M = 0.002000000; output (1,000 + 1,000 reasoning) x
  //   $6/M = 0.012000000; total 0.014000000
  {
    id: "xai-18-grok-4.7-dated-reasoning-form",
    receivedAt: "2026-11-23T08:00:00Z",
    request: request("xai", "grok-4.7-1101-reasoning", [
      tokens({ input_tokens: 1000, output_tokens: 1000, reasoning_tokens: 1000 }),
    ]),
    expectedCostUsd: "0.014000000",
  },
];
