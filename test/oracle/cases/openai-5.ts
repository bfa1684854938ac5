import type { OracleCase } from "../oracle-case.ts";
import { request, tokens } from "./request.ts";

/**
 * OpenAI, prices kept current (read 2026-11-26): the GPT-5.4 long-context boundary as its page words it,
 * batch and flex across that boundary, and priority rows the table lacked. Each case: the page and its
 * rates, then the arithmetic.
 */
export const OPENAI_5_CASES: OracleCase[] = [
  // Page: https://developers.openai.com/api/docs/models/gpt-5.4 (read 2026-11-26): input $2.50, cached input $0.25,
  //   output $15.00 per 1M tokens; 'prompts with >272K input tokens are priced at 2x input and 1.5x output'
  // input exactly 272,000 is not more than 272K: standard. 272,000 x $2.50/M = 0.680000000; output 10,000 x $15/M =
  //   0.150000000; total 0.830000000
  {
    id: "openai-5-01-gpt-5.4-at-272000-standard",
    receivedAt: "2026-11-26T12:00:00Z",
    request: request("openai", "gpt-5.4", [tokens({ input_tokens: 272000, output_tokens: 10000 })]),
    expectedCostUsd: "0.830000000",
  },
  // Page: gpt-5.4, as above: 272,001 input tokens is >272K: 2x input = $5.00, 1.5x output = $22.50 for the full call
  // 272,001 x $5/M = 1.360005000; output 10,000 x $22.50/M = 0.225000000; total 1.585005000
  {
    id: "openai-5-02-gpt-5.4-at-272001-long",
    receivedAt: "2026-11-26T12:00:00Z",
    request: request("openai", "gpt-5.4", [tokens({ input_tokens: 272001, output_tokens: 10000 })]),
    expectedCostUsd: "1.585005000",
  },
  // Page: gpt-5.4, as above: 272,000 input of which 72,000 cached: standard rates
  // 200,000 x $2.50/M = 0.500000000; 72,000 cached x $0.25/M = 0.018000000; output 1,000 x $15/M = 0.015000000;
  //   total 0.533000000
  {
    id: "openai-5-03-gpt-5.4-at-272000-cached-standard",
    receivedAt: "2026-11-26T12:00:00Z",
    request: request("openai", "gpt-5.4", [
      tokens({ input_tokens: 272000, cached_tokens: 72000, output_tokens: 1000 }),
    ]),
    expectedCostUsd: "0.533000000",
  },
  // Page: gpt-5.4, as above: 271,999 input is standard
  // 271,999 x $2.50/M = 0.679997500; output 1,000 x $15/M = 0.015000000; total 0.694997500
  {
    id: "openai-5-04-gpt-5.4-at-271999-standard",
    receivedAt: "2026-11-26T12:00:00Z",
    request: request("openai", "gpt-5.4", [tokens({ input_tokens: 271999, output_tokens: 1000 })]),
    expectedCostUsd: "0.694997500",
  },
  // Page: gpt-5.4, as above: long context (input 1,000,000 > 272K): $5.00 input, $22.50 output
  // 1,000,000 x $5/M = 5.000000000; output 100,000 x $22.50/M = 2.250000000; total 7.250000000
  {
    id: "openai-5-05-gpt-5.4-one-million-long",
    receivedAt: "2026-11-26T12:00:00Z",
    request: request("openai", "gpt-5.4", [tokens({ input_tokens: 1000000, output_tokens: 100000 })]),
    expectedCostUsd: "7.250000000",
  },
  // Page: gpt-5.4, as above: long context; output 5,000 of which 4,000 reasoning (reasoning is inside output_tokens)
  // 272,001 x $5/M = 1.360005000; output 5,000 x $22.50/M = 0.112500000; total 1.472505000
  {
    id: "openai-5-06-gpt-5.4-long-with-reasoning",
    receivedAt: "2026-11-26T12:00:00Z",
    request: request("openai", "gpt-5.4", [
      tokens({ input_tokens: 272001, output_tokens: 5000, reasoning_tokens: 4000 }),
    ]),
    expectedCostUsd: "1.472505000",
  },
  // Pages: gpt-5.4, as above ('for standard, batch, and flex'), and https://help.openai.com/en/articles/9197833-batch-api-faq
  //   (50% of the standard price, as for openai-20)
  // batch at 272,000 (standard): 272,000 x $1.25/M = 0.340000000; output 10,000 x $7.50/M = 0.075000000; total
  //   0.415000000
  {
    id: "openai-5-07-gpt-5.4-batch-at-272000",
    receivedAt: "2026-11-26T12:00:00Z",
    request: request("openai", "gpt-5.4", [tokens({ input_tokens: 272000, output_tokens: 10000 })], {
      model_tier: "batch",
    }),
    expectedCostUsd: "0.415000000",
  },
  // Pages: as above: batch at 272,001 (long): half of $5.00 and $22.50
  // 272,001 x $2.50/M = 0.680002500; output 10,000 x $11.25/M = 0.112500000; total 0.792502500
  {
    id: "openai-5-08-gpt-5.4-batch-at-272001",
    receivedAt: "2026-11-26T12:00:00Z",
    request: request("openai", "gpt-5.4", [tokens({ input_tokens: 272001, output_tokens: 10000 })], {
      model_tier: "batch",
    }),
    expectedCostUsd: "0.792502500",
  },
  // Pages: gpt-5.4, as above, and https://developers.openai.com/api/docs/guides/flex-processing.md ('Batch and Flex are
  //   priced at 50% of Standard rates', as for openai-21): flex at 272,000 is standard x 0.5
  // 272,000 x $1.25/M = 0.340000000; output 2,000 x $7.50/M = 0.015000000; total 0.355000000
  {
    id: "openai-5-09-gpt-5.4-flex-at-272000",
    receivedAt: "2026-11-26T12:00:00Z",
    request: request("openai", "gpt-5.4", [tokens({ input_tokens: 272000, output_tokens: 2000 })], {
      model_tier: "flex",
    }),
    expectedCostUsd: "0.355000000",
  },
  // Pages: as above: flex above 272K: half of $5.00 and $22.50
  // 300,000 x $2.50/M = 0.750000000; output 2,000 x $11.25/M = 0.022500000; total 0.772500000
  {
    id: "openai-5-10-gpt-5.4-flex-long",
    receivedAt: "2026-11-26T12:00:00Z",
    request: request("openai", "gpt-5.4", [tokens({ input_tokens: 300000, output_tokens: 2000 })], {
      model_tier: "flex",
    }),
    expectedCostUsd: "0.772500000",
  },
  // Page: gpt-5.4, as above: no cache-write price on the page, so written tokens (a part of input_tokens) are billed
  //   at the input rate (decisions: 'Cache writes on OpenAI')
  // 50,000 input (10,000 written) x $2.50/M = 0.125000000; output 1,000 x $15/M = 0.015000000; total 0.140000000
  {
    id: "openai-5-11-gpt-5.4-writes-at-input-rate",
    receivedAt: "2026-11-26T12:00:00Z",
    request: request("openai", "gpt-5.4", [
      tokens({ input_tokens: 50000, cache_creation_input_tokens: 10000, output_tokens: 1000 }),
    ]),
    expectedCostUsd: "0.140000000",
  },
  // Page: https://openai.com/api-priority-processing/ (read 2026-11-26): o4-mini $2.00 input, $0.500 cached input,
  //   $8.00 output per 1M tokens
  // 6,000 x $2/M = 0.012000000; 4,000 cached x $0.50/M = 0.002000000; output 3,000 (2,000 reasoning inside) x $8/M =
  //   0.024000000; total 0.038000000
  {
    id: "openai-5-12-priority-o4-mini",
    receivedAt: "2026-11-26T12:00:00Z",
    request: request(
      "openai",
      "o4-mini",
      [tokens({ input_tokens: 10000, cached_tokens: 4000, output_tokens: 3000, reasoning_tokens: 2000 })],
      { model_tier: "priority" },
    ),
    expectedCostUsd: "0.038000000",
  },
  // Page: priority processing, as above: o4-mini $2.00 / $8.00 (its dated snapshot)
  // 100,000 x $2/M = 0.200000000; output 10,000 x $8/M = 0.080000000; total 0.280000000
  {
    id: "openai-5-13-priority-o4-mini-snapshot",
    receivedAt: "2026-11-26T12:00:00Z",
    request: request("openai", "o4-mini-2025-04-16", [tokens({ input_tokens: 100000, output_tokens: 10000 })], {
      model_tier: "priority",
    }),
    expectedCostUsd: "0.280000000",
  },
  // Page: https://openai.com/api-priority-processing/ (read 2026-11-26): GPT-5.5 (excludes long context) $12.50
  //   input, $1.250 cached input, $75.00 output per 1M tokens
  // 15,000 x $12.50/M = 0.187500000; 5,000 cached x $1.25/M = 0.006250000; output 2,000 x $75/M = 0.150000000;
  //   total 0.343750000
  {
    id: "openai-5-14-priority-gpt-5.5",
    receivedAt: "2026-11-26T12:00:00Z",
    request: request("openai", "gpt-5.5", [tokens({ input_tokens: 20000, cached_tokens: 5000, output_tokens: 2000 })], {
      model_tier: "priority",
    }),
    expectedCostUsd: "0.343750000",
  },
  // Page: priority processing, as above: GPT-5.4 $5.00 / $0.500 cached / $30.00
  // 60,000 x $5/M = 0.300000000; 40,000 cached x $0.50/M = 0.020000000; output 10,000 x $30/M = 0.300000000; total
  //   0.620000000
  {
    id: "openai-5-15-priority-gpt-5.4",
    receivedAt: "2026-11-26T12:00:00Z",
    request: request(
      "openai",
      "gpt-5.4",
      [tokens({ input_tokens: 100000, cached_tokens: 40000, output_tokens: 10000 })],
      { model_tier: "priority" },
    ),
    expectedCostUsd: "0.620000000",
  },
  // Page: priority processing, as above: GPT-5.4 mini $1.50 / $0.150 cached / $9.00
  // 50,000 x $1.50/M = 0.075000000; output 5,000 (3,000 reasoning inside) x $9/M = 0.045000000; total 0.120000000
  {
    id: "openai-5-16-priority-gpt-5.4-mini",
    receivedAt: "2026-11-26T12:00:00Z",
    request: request(
      "openai",
      "gpt-5.4-mini",
      [tokens({ input_tokens: 50000, output_tokens: 5000, reasoning_tokens: 3000 })],
      { model_tier: "priority" },
    ),
    expectedCostUsd: "0.120000000",
  },
  // Page: priority processing, as above: GPT-5.2 $3.50 / $0.350 cached / $28.00
  // 20,000 x $3.50/M = 0.070000000; 10,000 cached x $0.35/M = 0.003500000; output 4,000 x $28/M = 0.112000000; total
  //   0.185500000
  {
    id: "openai-5-17-priority-gpt-5.2",
    receivedAt: "2026-11-26T12:00:00Z",
    request: request(
      "openai",
      "gpt-5.2",
      [tokens({ input_tokens: 30000, cached_tokens: 10000, output_tokens: 4000 })],
      { model_tier: "priority" },
    ),
    expectedCostUsd: "0.185500000",
  },
  // Page: priority processing, as above: 'excludes long context', footnote 'Requests estimated at >128K prompt
  //   tokens': exactly 128,000 is not long context, so the GPT-5.5 priority row applies
  // 128,000 x $12.50/M = 1.600000000; output 1,000 x $75/M = 0.075000000; total 1.675000000
  {
    id: "openai-5-18-priority-gpt-5.5-at-128000",
    receivedAt: "2026-11-26T12:00:00Z",
    request: request("openai", "gpt-5.5", [tokens({ input_tokens: 128000, output_tokens: 1000 })], {
      model_tier: "priority",
    }),
    expectedCostUsd: "1.675000000",
  },
];
