import type { OracleCase } from "../oracle-case.ts";
import { request, tokens } from "./request.ts";

/**
 * Anthropic, what the current-prices work adds: the long-context boundary as the page words it ("exceed
 * 200K input tokens": 200,000 is standard), the prompt counted as input + cache reads + cache writes, and
 * the platform forms of the id. Page: https://platform.claude.com/docs/en/about-claude/pricing (read
 * 2026-11-22), Claude Sonnet 4: base input $3, 5m cache writes $3.75, 1h cache writes $6, cache hits $0.30,
 * output $15; long context (1M window, from 2025-08-12) $6 / $7.50 / $12 / $0.60 / $22.50; Batch: "All usage
 * is charged at 50% of the standard API prices" (batch-processing page, read 2026-11-22).
 */
export const ANTHROPIC_3_CASES: OracleCase[] = [
  // prompt 150,000 + 30,000 read + 20,000 written = 200,000: not above 200K, standard. 150,000 x $3/M = 0.450000000;
  //   30,000 x $0.30/M = 0.009000000; 20,000 x $3.75/M = 0.075000000; output 2,000 x $15/M = 0.030000000; total
  //   0.564000000
  {
    id: "anthropic-20-sonnet-4-prompt-200000-standard",
    receivedAt: "2026-11-22T09:00:00Z",
    request: request("anthropic", "claude-sonnet-4-20250514", [
      tokens({
        input_tokens: 150000,
        cache_read_input_tokens: 30000,
        cache_creation_input_tokens: 20000,
        output_tokens: 2000,
      }),
    ]),
    expectedCostUsd: "0.564000000",
  },
  // prompt 150,001 + 30,000 + 20,000 = 200,001: above 200K, the whole call long. 150,001 x $6/M = 0.900006000;
  //   30,000 x $0.60/M = 0.018000000; 20,000 x $7.50/M = 0.150000000; output 2,000 x $22.50/M = 0.045000000; total
  //   1.113006000
  {
    id: "anthropic-21-sonnet-4-prompt-200001-long",
    receivedAt: "2026-11-22T09:00:00Z",
    request: request("anthropic", "claude-sonnet-4-20250514", [
      tokens({
        input_tokens: 150001,
        cache_read_input_tokens: 30000,
        cache_creation_input_tokens: 20000,
        output_tokens: 2000,
      }),
    ]),
    expectedCostUsd: "1.113006000",
  },
  // Vertex AI's form of the id (`@` before the date): 1,000 x $3/M = 0.003000000; 2,000 read x $0.30/M =
  //   0.000600000; output 500 x $15/M = 0.007500000; total 0.011100000
  {
    id: "anthropic-22-sonnet-4-vertex-id",
    receivedAt: "2026-11-22T09:00:00Z",
    request: request("anthropic", "claude-sonnet-4@20250514", [
      tokens({ input_tokens: 1000, cache_read_input_tokens: 2000, output_tokens: 500 }),
    ]),
    expectedCostUsd: "0.011100000",
  },
  // Alias claude-sonnet-4-0; 10,000 written of which 4,000 with the 1-hour TTL: 5,000 x $3/M = 0.015000000; 6,000 x
  //   $3.75/M = 0.022500000; 4,000 x $6/M = 0.024000000; output 1,000 x $15/M = 0.015000000; total 0.076500000
  {
    id: "anthropic-23-sonnet-4-alias-one-hour-writes",
    receivedAt: "2026-11-22T09:00:00Z",
    request: request("anthropic", "claude-sonnet-4-0", [
      tokens({
        input_tokens: 5000,
        cache_creation_input_tokens: 10000,
        cache_creation_1h_input_tokens: 4000,
        output_tokens: 1000,
      }),
    ]),
    expectedCostUsd: "0.076500000",
  },
  // Batch on the long-context rates ("The Batch API 50% discount applies to long context pricing"): 250,000 x $3/M
  //   (half of $6) = 0.750000000; output 10,000 x $11.25/M (half of $22.50) = 0.112500000; total 0.862500000
  {
    id: "anthropic-24-sonnet-4-batch-long-context",
    receivedAt: "2026-11-22T09:00:00Z",
    request: request(
      "anthropic",
      "claude-sonnet-4-20250514",
      [tokens({ input_tokens: 250000, output_tokens: 10000 })],
      { model_tier: "batch" },
    ),
    expectedCostUsd: "0.862500000",
  },
  // Batch at exactly 200,000 (standard): 200,000 x $1.50/M = 0.300000000; output 1,000 x $7.50/M = 0.007500000;
  //   total 0.307500000
  {
    id: "anthropic-25-sonnet-4-batch-at-200000",
    receivedAt: "2026-11-22T09:00:00Z",
    request: request("anthropic", "claude-sonnet-4-20250514", [tokens({ input_tokens: 200000, output_tokens: 1000 })], {
      model_tier: "batch",
    }),
    expectedCostUsd: "0.307500000",
  },
];
