import type { OracleCase } from "../oracle-case.ts";
import { request, tokens } from "./request.ts";

/**
 * OpenAI GPT-5.6 Sol, its page read 2026-11-26 (https://developers.openai.com/pt-BR/api/docs/models/gpt-5.6-sol,
 * the Portuguese edition; the Japanese one says the same): input $4.00, cached input $0.40, output $20.00 per 1M
 * tokens, "uma redução de 20% no preço de entrada e de 33% no preço de saída", promotional prices "pelo menos até
 * 21 de novembro de 2026" (the cases fall before that date); "Para prompts com >272K tokens de entrada, os preços
 * são de 2x para entrada e 1,5x para saída" for the full request; cache writes at 1.25x the uncached input rate.
 * Each case: the rates, then the arithmetic.
 */
const AT = "2026-11-20T12:00:00Z";

export const OPENAI_7_CASES: OracleCase[] = [
  // exactly 272,000 input tokens is not >272K: 272,000 x $4/M = 1.088000000; output 1,000 x $20/M = 0.020000000;
  //   total 1.108000000
  {
    id: "openai-7-01-gpt-5.6-sol-at-272000",
    receivedAt: AT,
    request: request("openai", "gpt-5.6-sol", [tokens({ input_tokens: 272000, output_tokens: 1000 })]),
    expectedCostUsd: "1.108000000",
  },
  // 272,001 is >272K: input $8, output $30 for the whole call: 272,001 x $8/M = 2.176008000; output 1,000 x $30/M =
  //   0.030000000; total 2.206008000
  {
    id: "openai-7-02-gpt-5.6-sol-at-272001",
    receivedAt: AT,
    request: request("openai", "gpt-5.6-sol", [tokens({ input_tokens: 272001, output_tokens: 1000 })]),
    expectedCostUsd: "2.206008000",
  },
  // cache writes at 1.25 x $4 = $5: input 10,000 = 5,000 plain + 5,000 written: 5,000 x $4/M = 0.020000000; 5,000 x
  //   $5/M = 0.025000000; output 1,000 x $20/M = 0.020000000; total 0.065000000
  {
    id: "openai-7-03-gpt-5.6-sol-cache-writes",
    receivedAt: AT,
    request: request("openai", "gpt-5.6-sol", [
      tokens({ input_tokens: 10000, cache_creation_input_tokens: 5000, output_tokens: 1000 }),
    ]),
    expectedCostUsd: "0.065000000",
  },
  // exactly 272,000 with 72,000 cached: 200,000 x $4/M = 0.800000000; 72,000 x $0.40/M = 0.028800000; output 2,000 x
  //   $20/M = 0.040000000; total 0.868800000
  {
    id: "openai-7-04-gpt-5.6-sol-at-272000-cached",
    receivedAt: AT,
    request: request("openai", "gpt-5.6-sol", [
      tokens({ input_tokens: 272000, cached_tokens: 72000, output_tokens: 2000 }),
    ]),
    expectedCostUsd: "0.868800000",
  },
  // Fast mode above 272K: https://openai.com/api-fast-mode/ (newer copy read 2026-11-26), GPT-5.6 Sol long context
  //   $16.00 input, $60.00 output: 300,000 x $16/M = 4.800000000; output 1,000 x $60/M = 0.060000000; total
  //   4.860000000
  {
    id: "openai-7-05-gpt-5.6-sol-fast-long",
    receivedAt: AT,
    request: request("openai", "gpt-5.6-sol", [tokens({ input_tokens: 300000, output_tokens: 1000 })], {
      model_tier: "fast",
    }),
    expectedCostUsd: "4.860000000",
  },
];
