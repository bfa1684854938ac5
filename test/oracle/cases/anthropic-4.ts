import type { OracleCase } from "../oracle-case.ts";
import { request, tokens } from "./request.ts";

/**
 * Anthropic, the models launched from June 2026 that the pinned catalog lacks, each from Anthropic's own pages
 * (read 2026-11-26). USD per million tokens (MTok); one token at $X/MTok is X / 1,000,000 USD.
 * - Pricing page https://platform.claude.com/docs/en/about-claude/pricing, "Model pricing": "Claude Mythos 5
 *   (limited availability) | $10 / MTok | $12.50 / MTok | $20 / MTok | $1 / MTok | $50 / MTok" and "Claude
 *   Mythos 5.1 (limited availability) | $10 / MTok | $12.50 / MTok | $20 / MTok | $0.25 / MTok | $50 / MTok"
 *   (base input, 5m cache writes, 1h cache writes, cache hits, output).
 * - https://platform.claude.com/docs/zh-CN/models/sonnet-5-5/overview, "Pricing": "Input $2 / MTok, Output $10 /
 *   MTok, 5m cache write $2.50 / MTok, 1h cache write $4 / MTok, Cache read $0.20 / MTok, Batch API 50% discount
 *   on input and output"; one price for the whole 1M context window.
 * - https://platform.claude.com/docs/zh-CN/models/haiku-5-5/overview (released October 7, 2026): "Input $0.10 /
 *   MTok for prompts up to 100,000 tokens, $0.50 / MTok for prompts over 100,000 tokens; Output $0.50 / $2.50;
 *   5m cache write $0.125 / $0.625; 1h cache write $0.20 / MTok for prompts up to 100,000 tokens". "Over
 *   100,000": 100,000 is the lower band, 100,001 the higher, for the whole call. The prompt is input + cache
 *   reads + cache writes (pricing page, long context).
 * - The lineup table on https://platform.claude.com/docs/id/models/sonnet-5/overview: "Claude Fable 5.2 | 1M |
 *   128K | $8 / $40".
 * - Batch (batch-processing page): "All usage is charged at 50% of the standard API prices".
 */
export const ANTHROPIC_4_CASES: OracleCase[] = [
  // Mythos 5: input 10,000 x $10 = 0.100000000; 6,000 written of which 2,000 for 1 hour: 4,000 x $12.50 =
  //   0.050000000 and 2,000 x $20 = 0.040000000; 20,000 read x $1 = 0.020000000; output 3,000 x $50 = 0.150000000;
  //   total 0.360000000
  {
    id: "anthropic-30-mythos-5-all-components",
    receivedAt: "2026-11-20T09:00:00Z",
    request: request("anthropic", "claude-mythos-5", [
      tokens({
        input_tokens: 10000,
        cache_creation_input_tokens: 6000,
        cache_creation_1h_input_tokens: 2000,
        cache_read_input_tokens: 20000,
        output_tokens: 3000,
      }),
    ]),
    expectedCostUsd: "0.360000000",
  },
  // Mythos 5 in Vertex AI's form: 1,000 x $10 = 0.010000000; output 1,000 x $50 = 0.050000000; total 0.060000000
  {
    id: "anthropic-31-mythos-5-vertex-id",
    receivedAt: "2026-11-20T09:00:00Z",
    request: request("anthropic", "claude-mythos-5@20260609", [tokens({ input_tokens: 1000, output_tokens: 1000 })]),
    expectedCostUsd: "0.060000000",
  },
  // Mythos 5.1, cache hits at $0.25 (not Mythos 5's $1): input 10,000 x $10 = 0.100000000; 100,000 read x $0.25 =
  //   0.025000000; output 2,000 x $50 = 0.100000000; total 0.225000000
  {
    id: "anthropic-32-mythos-5-1-cache-hits",
    receivedAt: "2026-11-20T09:00:00Z",
    request: request("anthropic", "claude-mythos-5-1", [
      tokens({ input_tokens: 10000, cache_read_input_tokens: 100000, output_tokens: 2000 }),
    ]),
    expectedCostUsd: "0.225000000",
  },
  // Mythos 5.1 in a batch, half of every price: 20,000 x $5 = 0.100000000; 40,000 read x $0.125 = 0.005000000;
  //   output 1,000 x $25 = 0.025000000; total 0.130000000
  {
    id: "anthropic-33-mythos-5-1-batch",
    receivedAt: "2026-11-20T09:00:00Z",
    request: request(
      "anthropic",
      "claude-mythos-5-1",
      [tokens({ input_tokens: 20000, cache_read_input_tokens: 40000, output_tokens: 1000 })],
      { model_tier: "batch" },
    ),
    expectedCostUsd: "0.130000000",
  },
  // Sonnet 5.5 before 2026-10-07, cache hits at $0.20: input 10,000 x $2 = 0.020000000; 50,000 read x $0.20 =
  //   0.010000000; 5,000 written (5m) x $2.50 = 0.012500000; output 2,000 x $10 = 0.020000000; total 0.062500000
  {
    id: "anthropic-34-sonnet-5-5-cache-hits",
    receivedAt: "2026-10-01T09:00:00Z",
    request: request("anthropic", "claude-sonnet-5-5", [
      tokens({
        input_tokens: 10000,
        cache_read_input_tokens: 50000,
        cache_creation_input_tokens: 5000,
        output_tokens: 2000,
      }),
    ]),
    expectedCostUsd: "0.062500000",
  },
  // Sonnet 5.5, writes of both lifetimes: input 10,000 x $2 = 0.020000000; 8,000 written of which 3,000 for 1
  //   hour: 5,000 x $2.50 = 0.012500000, 3,000 x $4 = 0.012000000; output 4,000 x $10 = 0.040000000; total
  //   0.084500000
  {
    id: "anthropic-35-sonnet-5-5-both-write-lifetimes",
    receivedAt: "2026-11-20T09:00:00Z",
    request: request("anthropic", "claude-sonnet-5-5", [
      tokens({
        input_tokens: 10000,
        cache_creation_input_tokens: 8000,
        cache_creation_1h_input_tokens: 3000,
        output_tokens: 4000,
      }),
    ]),
    expectedCostUsd: "0.084500000",
  },
  // Sonnet 5.5, a 300,000-token prompt from Claude Code (`[1m]`): one price for the 1M window. 300,000 x $2 =
  //   0.600000000; output 1,000 x $10 = 0.010000000; total 0.610000000
  {
    id: "anthropic-36-sonnet-5-5-1m-window-one-price",
    receivedAt: "2026-11-20T09:00:00Z",
    request: request("anthropic", "claude-sonnet-5-5[1m]", [tokens({ input_tokens: 300000, output_tokens: 1000 })]),
    expectedCostUsd: "0.610000000",
  },
  // Sonnet 5.5 in a batch: 100,000 x $1 = 0.100000000; output 10,000 x $5 = 0.050000000; total 0.150000000
  {
    id: "anthropic-37-sonnet-5-5-batch",
    receivedAt: "2026-11-20T09:00:00Z",
    request: request("anthropic", "claude-sonnet-5-5", [tokens({ input_tokens: 100000, output_tokens: 10000 })], {
      model_tier: "batch",
    }),
    expectedCostUsd: "0.150000000",
  },
  // Haiku 5.5, prompt 90,000 + 10,000 written = 100,000: not over 100,000, the lower band. 90,000 x $0.10 =
  //   0.009000000; 10,000 x $0.125 = 0.001250000; output 2,000 x $0.50 = 0.001000000; total 0.011250000
  {
    id: "anthropic-38-haiku-5-5-prompt-100000-lower-band",
    receivedAt: "2026-11-20T09:00:00Z",
    request: request("anthropic", "claude-haiku-5-5", [
      tokens({ input_tokens: 90000, cache_creation_input_tokens: 10000, output_tokens: 2000 }),
    ]),
    expectedCostUsd: "0.011250000",
  },
  // Haiku 5.5, prompt 90,001 + 10,000 = 100,001: over 100,000, the whole call in the higher band. 90,001 x $0.50
  //   = 0.045000500; 10,000 x $0.625 = 0.006250000; output 2,000 x $2.50 = 0.005000000; total 0.056250500
  {
    id: "anthropic-39-haiku-5-5-prompt-100001-higher-band",
    receivedAt: "2026-11-20T09:00:00Z",
    request: request("anthropic", "claude-haiku-5-5", [
      tokens({ input_tokens: 90001, cache_creation_input_tokens: 10000, output_tokens: 2000 }),
    ]),
    expectedCostUsd: "0.056250500",
  },
  // Haiku 5.5, writes of both lifetimes in the lower band: 20,000 x $0.10 = 0.002000000; 10,000 written of which
  //   4,000 for 1 hour: 6,000 x $0.125 = 0.000750000, 4,000 x $0.20 = 0.000800000; output 1,000 x $0.50 =
  //   0.000500000; total 0.004050000
  {
    id: "anthropic-40-haiku-5-5-one-hour-writes",
    receivedAt: "2026-11-20T09:00:00Z",
    request: request("anthropic", "claude-haiku-5-5", [
      tokens({
        input_tokens: 20000,
        cache_creation_input_tokens: 10000,
        cache_creation_1h_input_tokens: 4000,
        output_tokens: 1000,
      }),
    ]),
    expectedCostUsd: "0.004050000",
  },
  // Haiku 5.5 in a batch, higher band halved: 150,000 x $0.25 = 0.037500000; output 10,000 x $1.25 = 0.012500000;
  //   total 0.050000000
  {
    id: "anthropic-41-haiku-5-5-batch-higher-band",
    receivedAt: "2026-11-20T09:00:00Z",
    request: request("anthropic", "claude-haiku-5-5", [tokens({ input_tokens: 150000, output_tokens: 10000 })], {
      model_tier: "batch",
    }),
    expectedCostUsd: "0.050000000",
  },
  // Haiku 5.5, thinking inside output_tokens, billed as output: 1,000 x $0.10 = 0.000100000; output 5,000 (3,000 of
  //   them thinking) x $0.50 = 0.002500000; total 0.002600000
  {
    id: "anthropic-42-haiku-5-5-thinking-as-output",
    receivedAt: "2026-11-20T09:00:00Z",
    request: request("anthropic", "claude-haiku-5-5", [
      tokens({ input_tokens: 1000, output_tokens: 5000, thinking_tokens: 3000 }),
    ]),
    expectedCostUsd: "0.002600000",
  },
  // Fable 5.2: 10,000 x $8 = 0.080000000; output 2,000 x $40 = 0.080000000; total 0.160000000
  {
    id: "anthropic-43-fable-5-2",
    receivedAt: "2026-11-20T09:00:00Z",
    request: request("anthropic", "claude-fable-5-2", [tokens({ input_tokens: 10000, output_tokens: 2000 })]),
    expectedCostUsd: "0.160000000",
  },
  // Fable 5.2 in a batch: 100,000 x $4 = 0.400000000; output 10,000 x $20 = 0.200000000; total 0.600000000
  {
    id: "anthropic-44-fable-5-2-batch",
    receivedAt: "2026-11-20T09:00:00Z",
    request: request("anthropic", "claude-fable-5-2", [tokens({ input_tokens: 100000, output_tokens: 10000 })], {
      model_tier: "batch",
    }),
    expectedCostUsd: "0.600000000",
  },
];
