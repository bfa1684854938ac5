import type { OracleCase } from "../oracle-case.ts";
import { request, tokens } from "./request.ts";

/**
 * OpenAI, models and tiers launched since September 2026 (pages read 2026-11-26): GPT-6.2 Sol with cache
 * writes, long context, batch, Fast mode and Ultrafast; Fast mode (the renamed priority processing) under
 * either name, for GPT-6 Sol and the GPT-5.6 family. Each case: the page and its rates, then the arithmetic.
 */
const AT = "2026-11-26T12:00:00Z";

export const OPENAI_6_CASES: OracleCase[] = [
  // Page: https://developers.openai.com/api/docs/models/gpt-6.2-sol (read 2026-11-26): Input $2.00, Cached input
  //   $0.10, Cache writes $2.50 (30 minutes of retention), Output $10.00 per 1M tokens
  // input 100,000 = 60,000 plain + 20,000 cached + 20,000 written: 60,000 x $2/M = 0.120000000; 20,000 x $0.10/M =
  //   0.002000000; 20,000 x $2.50/M = 0.050000000; output 5,000 x $10/M = 0.050000000; total 0.222000000
  {
    id: "openai-6-01-gpt-6.2-sol-cache-writes",
    receivedAt: AT,
    request: request("openai", "gpt-6.2-sol", [
      tokens({ input_tokens: 100000, cached_tokens: 20000, cache_creation_input_tokens: 20000, output_tokens: 5000 }),
    ]),
    expectedCostUsd: "0.222000000",
  },
  // Page: gpt-6.2-sol, as above: 'For requests with more than 272K input tokens, input and cache rates double and
  //   output costs 1.5 times': exactly 272,000 is not more than 272K
  // 272,000 x $2/M = 0.544000000; output 1,000 x $10/M = 0.010000000; total 0.554000000
  {
    id: "openai-6-02-gpt-6.2-sol-at-272000",
    receivedAt: AT,
    request: request("openai", "gpt-6.2-sol", [tokens({ input_tokens: 272000, output_tokens: 1000 })]),
    expectedCostUsd: "0.554000000",
  },
  // Page: gpt-6.2-sol, as above: 272,001 input tokens is more than 272K: input $4, cached $0.20, output $15
  // 200,001 plain x $4/M = 0.800004000; 72,000 cached x $0.20/M = 0.014400000; output 1,000 x $15/M = 0.015000000;
  //   total 0.829404000
  {
    id: "openai-6-03-gpt-6.2-sol-at-272001-long",
    receivedAt: AT,
    request: request("openai", "gpt-6.2-sol", [
      tokens({ input_tokens: 272001, cached_tokens: 72000, output_tokens: 1000 }),
    ]),
    expectedCostUsd: "0.829404000",
  },
  // Page: gpt-6.2-sol, as above: 'Batch costs 50% of Standard rates': input $1, output $5
  // 100,000 x $1/M = 0.100000000; output 10,000 x $5/M = 0.050000000; total 0.150000000
  {
    id: "openai-6-04-gpt-6.2-sol-batch",
    receivedAt: AT,
    request: request("openai", "gpt-6.2-sol", [tokens({ input_tokens: 100000, output_tokens: 10000 })], {
      model_tier: "batch",
    }),
    expectedCostUsd: "0.150000000",
  },
  // Page: gpt-6.2-sol, as above: 'Fast mode costs twice the Standard rate for the same context length': input $4,
  //   cached $0.20, output $20
  // 40,000 x $4/M = 0.160000000; 10,000 cached x $0.20/M = 0.002000000; output 2,000 x $20/M = 0.040000000; total
  //   0.202000000
  {
    id: "openai-6-05-gpt-6.2-sol-fast",
    receivedAt: AT,
    request: request(
      "openai",
      "gpt-6.2-sol",
      [tokens({ input_tokens: 50000, cached_tokens: 10000, output_tokens: 2000 })],
      { model_tier: "fast" },
    ),
    expectedCostUsd: "0.202000000",
  },
  // Pages: gpt-6.2-sol, as above, and https://openai.com/api-fast-mode/ (read 2026-11-26: 'You can use either
  //   service_tier: priority or service_tier: fast'): long context (300,000 > 272K) in Fast mode is twice the long
  //   rates: input $8, output $30
  // 300,000 x $8/M = 2.400000000; output 1,000 x $30/M = 0.030000000; total 2.430000000
  {
    id: "openai-6-06-gpt-6.2-sol-priority-long",
    receivedAt: AT,
    request: request("openai", "gpt-6.2-sol", [tokens({ input_tokens: 300000, output_tokens: 1000 })], {
      model_tier: "priority",
    }),
    expectedCostUsd: "2.430000000",
  },
  // Page: gpt-6.2-sol, as above: 'Ultrafast costs 3 times the Standard rate through February 28, 2027': input $6,
  //   output $30
  // 10,000 x $6/M = 0.060000000; output 1,000 x $30/M = 0.030000000; total 0.090000000
  {
    id: "openai-6-07-gpt-6.2-sol-ultrafast",
    receivedAt: AT,
    request: request("openai", "gpt-6.2-sol", [tokens({ input_tokens: 10000, output_tokens: 1000 })], {
      model_tier: "ultrafast",
    }),
    expectedCostUsd: "0.090000000",
  },
  // Page: gpt-6.2-sol, as above: only cache writes in the prompt
  // 8,000 written x $2.50/M = 0.020000000; output 500 x $10/M = 0.005000000; total 0.025000000
  {
    id: "openai-6-08-gpt-6.2-sol-writes-only",
    receivedAt: AT,
    request: request("openai", "gpt-6.2-sol", [
      tokens({ input_tokens: 8000, cache_creation_input_tokens: 8000, output_tokens: 500 }),
    ]),
    expectedCostUsd: "0.025000000",
  },
  // Page: https://developers.openai.com/zh-Hans/api/docs/models/gpt-6-sol (read 2026-11-26): input $2.00, cached
  //   input $0.20, cache writes $2.50, output $10.00; 'fast mode is billed at 2x the applicable rate': $4, $0.40,
  //   $5, $20
  // input 20,000 = 10,000 plain + 5,000 cached + 5,000 written: 10,000 x $4/M = 0.040000000; 5,000 x $0.40/M =
  //   0.002000000; 5,000 x $5/M = 0.025000000; output 1,000 x $20/M = 0.020000000; total 0.087000000
  {
    id: "openai-6-09-gpt-6-sol-fast",
    receivedAt: AT,
    request: request(
      "openai",
      "gpt-6-sol",
      [tokens({ input_tokens: 20000, cached_tokens: 5000, cache_creation_input_tokens: 5000, output_tokens: 1000 })],
      { model_tier: "fast" },
    ),
    expectedCostUsd: "0.087000000",
  },
  // Page: https://openai.com/api-fast-mode/ (read 2026-11-26): the renamed priority processing, either name;
  //   GPT-5.4 $5.00 input, $30.00 output
  // 10,000 x $5/M = 0.050000000; output 1,000 x $30/M = 0.030000000; total 0.080000000
  {
    id: "openai-6-10-gpt-5.4-fast-name",
    receivedAt: AT,
    request: request("openai", "gpt-5.4", [tokens({ input_tokens: 10000, output_tokens: 1000 })], {
      model_tier: "Fast",
    }),
    expectedCostUsd: "0.080000000",
  },
  // Page: https://openai.com/api-fast-mode/ (newer copy read 2026-11-26): GPT-5.6 Sol short context $8.00 input,
  //   $0.80 cached input, $40.00 output
  // 20,000 x $8/M = 0.160000000; 10,000 cached x $0.80/M = 0.008000000; output 3,000 x $40/M = 0.120000000; total
  //   0.288000000
  {
    id: "openai-6-11-gpt-5.6-sol-fast",
    receivedAt: AT,
    request: request(
      "openai",
      "gpt-5.6-sol",
      [tokens({ input_tokens: 30000, cached_tokens: 10000, output_tokens: 3000 })],
      { model_tier: "fast" },
    ),
    expectedCostUsd: "0.288000000",
  },
  // Page: fast mode, as above: GPT-5.6 Terra short context $4.00 input, $24.00 output
  // 10,000 x $4/M = 0.040000000; output 1,000 x $24/M = 0.024000000; total 0.064000000
  {
    id: "openai-6-12-gpt-5.6-terra-fast",
    receivedAt: AT,
    request: request("openai", "gpt-5.6-terra", [tokens({ input_tokens: 10000, output_tokens: 1000 })], {
      model_tier: "fast",
    }),
    expectedCostUsd: "0.064000000",
  },
  // Page: fast mode, as above: GPT-5.6 Luna short context $0.40 input, $0.04 cached input, $2.40 output (priority,
  //   the old name)
  // 50,000 x $0.40/M = 0.020000000; 50,000 cached x $0.04/M = 0.002000000; output 10,000 x $2.40/M = 0.024000000;
  //   total 0.046000000
  {
    id: "openai-6-13-gpt-5.6-luna-priority",
    receivedAt: AT,
    request: request(
      "openai",
      "gpt-5.6-luna",
      [tokens({ input_tokens: 100000, cached_tokens: 50000, output_tokens: 10000 })],
      { model_tier: "priority" },
    ),
    expectedCostUsd: "0.046000000",
  },
  // Page: https://openai.com/api-fast-mode/ (older copy read 2026-11-26): GPT-5.6 Sol $10.00 input, $60.00 output,
  //   before Sol's price cut of 2026-08-21
  // 10,000 x $10/M = 0.100000000; output 1,000 x $60/M = 0.060000000; total 0.160000000
  {
    id: "openai-6-14-gpt-5.6-sol-fast-before-cut",
    receivedAt: "2026-08-01T12:00:00Z",
    request: request("openai", "gpt-5.6-sol", [tokens({ input_tokens: 10000, output_tokens: 1000 })], {
      model_tier: "fast",
    }),
    expectedCostUsd: "0.160000000",
  },
  // Page: https://developers.openai.com/zh-Hans/api/docs/models/gpt-6.1-terra (read 2026-11-26): input $1.00,
  //   cached input $0.05, cache writes $1.25 (30 minutes), output $5.00 per 1M tokens
  // input 40,000 = 20,000 plain + 10,000 cached + 10,000 written: 20,000 x $1/M = 0.020000000; 10,000 x $0.05/M =
  //   0.000500000; 10,000 x $1.25/M = 0.012500000; output 4,000 x $5/M = 0.020000000; total 0.053000000
  {
    id: "openai-6-15-gpt-6.1-terra-cache-writes",
    receivedAt: AT,
    request: request("openai", "gpt-6.1-terra", [
      tokens({ input_tokens: 40000, cached_tokens: 10000, cache_creation_input_tokens: 10000, output_tokens: 4000 }),
    ]),
    expectedCostUsd: "0.053000000",
  },
  // Page: gpt-6.1-terra, as above: 'if the prompt has more than 272K input tokens, the whole request's input and
  //   cache are billed at 2x their rates and output at 1.5x': exactly 272,000 is standard
  // 272,000 x $1/M = 0.272000000; output 1,000 x $5/M = 0.005000000; total 0.277000000
  {
    id: "openai-6-16-gpt-6.1-terra-at-272000",
    receivedAt: AT,
    request: request("openai", "gpt-6.1-terra", [tokens({ input_tokens: 272000, output_tokens: 1000 })]),
    expectedCostUsd: "0.277000000",
  },
  // Page: gpt-6.1-terra, as above: 272,001 is long: input $2, cached $0.10, output $7.50
  // 172,001 plain x $2/M = 0.344002000; 100,000 cached x $0.10/M = 0.010000000; output 2,000 x $7.50/M =
  //   0.015000000; total 0.369002000
  {
    id: "openai-6-17-gpt-6.1-terra-at-272001-long",
    receivedAt: AT,
    request: request("openai", "gpt-6.1-terra", [
      tokens({ input_tokens: 272001, cached_tokens: 100000, output_tokens: 2000 }),
    ]),
    expectedCostUsd: "0.369002000",
  },
  // Page: gpt-6.1-terra, as above: 'batch and flex prices are both 50% lower than standard': input $0.50, output $2.50
  // 100,000 x $0.50/M = 0.050000000; output 10,000 x $2.50/M = 0.025000000; total 0.075000000
  {
    id: "openai-6-18-gpt-6.1-terra-flex",
    receivedAt: AT,
    request: request("openai", "gpt-6.1-terra", [tokens({ input_tokens: 100000, output_tokens: 10000 })], {
      model_tier: "flex",
    }),
    expectedCostUsd: "0.075000000",
  },
  // Page: gpt-6.1-terra, as above: 'fast mode is twice the standard price': input $2, output $10
  // 10,000 x $2/M = 0.020000000; output 1,000 x $10/M = 0.010000000; total 0.030000000
  {
    id: "openai-6-19-gpt-6.1-terra-fast",
    receivedAt: AT,
    request: request("openai", "gpt-6.1-terra", [tokens({ input_tokens: 10000, output_tokens: 1000 })], {
      model_tier: "fast",
    }),
    expectedCostUsd: "0.030000000",
  },
];
