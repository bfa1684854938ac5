import type { OracleCase } from "../oracle-case.ts";
import { request, tokens } from "./request.ts";

/**
 * OpenAI GPT-5.6 Sol and Luna. Sol: its page read 2026-11-26 (https://developers.openai.com/pt-BR/api/docs/models/gpt-5.6-sol,
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
  // Page: https://developers.openai.com/api/docs/models/gpt-5.6-luna (read 2026-11-26): input $0.20, cached input
  //   $0.02, output $1.20; 'Prompts with >272K input tokens are priced at 2x input and 1.5x output for the full
  //   request': exactly 272,000 is standard
  // 272,000 x $0.20/M = 0.054400000; output 10,000 x $1.20/M = 0.012000000; total 0.066400000
  {
    id: "openai-7-06-gpt-5.6-luna-at-272000",
    receivedAt: AT,
    request: request("openai", "gpt-5.6-luna", [tokens({ input_tokens: 272000, output_tokens: 10000 })]),
    expectedCostUsd: "0.066400000",
  },
  // Page: gpt-5.6-luna, as above: 272,001 is long: input $0.40, output $1.80
  // 272,001 x $0.40/M = 0.108800400; output 10,000 x $1.80/M = 0.018000000; total 0.126800400
  {
    id: "openai-7-07-gpt-5.6-luna-at-272001",
    receivedAt: AT,
    request: request("openai", "gpt-5.6-luna", [tokens({ input_tokens: 272001, output_tokens: 10000 })]),
    expectedCostUsd: "0.126800400",
  },
  // Page: gpt-5.6-luna, as above: 'Cache writes are billed at 1.25x the uncached input token rate': $0.25
  // input 100,000 = 60,000 plain + 20,000 cached + 20,000 written: 60,000 x $0.20/M = 0.012000000; 20,000 x $0.02/M =
  //   0.000400000; 20,000 x $0.25/M = 0.005000000; output 5,000 x $1.20/M = 0.006000000; total 0.023400000
  {
    id: "openai-7-08-gpt-5.6-luna-cache-writes",
    receivedAt: AT,
    request: request("openai", "gpt-5.6-luna", [
      tokens({ input_tokens: 100000, cached_tokens: 20000, cache_creation_input_tokens: 20000, output_tokens: 5000 }),
    ]),
    expectedCostUsd: "0.023400000",
  },
  // Pages: https://openai.com/api-fast-mode/ (newer copy read 2026-11-26), GPT-5.6 Luna long context $0.80 input,
  //   $3.60 output, above the Luna page's '>272K'
  // 400,000 x $0.80/M = 0.320000000; output 10,000 x $3.60/M = 0.036000000; total 0.356000000
  {
    id: "openai-7-09-gpt-5.6-luna-fast-long",
    receivedAt: AT,
    request: request("openai", "gpt-5.6-luna", [tokens({ input_tokens: 400000, output_tokens: 10000 })], {
      model_tier: "fast",
    }),
    expectedCostUsd: "0.356000000",
  },
  // Page: https://developers.openai.com/api/docs/models/gpt-realtime-2.md (read 2026-11-26): text $4 input, $0.40
  //   cached, $24 output; audio $32 input, $0.40 cached, $64 output per 1M tokens
  // input 10,000 = 6,000 audio (1,000 cached) + 4,000 text (500 cached): text 3,500 x $4/M = 0.014000000; cached text
  //   500 x $0.40/M = 0.000200000; audio 5,000 x $32/M = 0.160000000; cached audio 1,000 x $0.40/M = 0.000400000;
  //   output 3,000 = 2,000 audio x $64/M = 0.128000000 + 1,000 text x $24/M = 0.024000000; total 0.326600000
  {
    id: "openai-7-10-gpt-realtime-2-audio-in-out",
    receivedAt: "2026-11-26T12:00:00Z",
    request: request("openai", "gpt-realtime-2", [
      tokens({
        input_tokens: 10000,
        cached_tokens: 1500,
        cached_audio_tokens: 1000,
        input_audio_tokens: 6000,
        output_tokens: 3000,
        output_audio_tokens: 2000,
      }),
    ]),
    expectedCostUsd: "0.326600000",
  },
  // Page: gpt-realtime-2, as above: image input $5 per 1M tokens
  // input 3,000 = 1,000 image x $5/M = 0.005000000 + 2,000 text x $4/M = 0.008000000; output 500 text x $24/M =
  //   0.012000000; total 0.025000000
  {
    id: "openai-7-11-gpt-realtime-2-image-in",
    receivedAt: "2026-11-26T12:00:00Z",
    request: request("openai", "gpt-realtime-2", [
      tokens({ input_tokens: 3000, input_image_tokens: 1000, output_tokens: 500 }),
    ]),
    expectedCostUsd: "0.025000000",
  },
  // Page: https://developers.openai.com/api/docs/models/gpt-realtime-2.1-mini.md (read 2026-11-26): text $0.60 input,
  //   $2.40 output; audio $10 input, $20 output per 1M tokens
  // input 20,000 = 15,000 audio x $10/M = 0.150000000 + 5,000 text x $0.60/M = 0.003000000; output 4,000 = 3,000
  //   audio x $20/M = 0.060000000 + 1,000 text x $2.40/M = 0.002400000; total 0.215400000
  {
    id: "openai-7-12-gpt-realtime-2.1-mini-audio",
    receivedAt: "2026-11-26T12:00:00Z",
    request: request("openai", "gpt-realtime-2.1-mini", [
      tokens({ input_tokens: 20000, input_audio_tokens: 15000, output_tokens: 4000, output_audio_tokens: 3000 }),
    ]),
    expectedCostUsd: "0.215400000",
  },
];
