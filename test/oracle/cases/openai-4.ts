import type { OracleCase } from "../oracle-case.ts";
import { request, tokens } from "./request.ts";

/**
 * OpenAI, what the current-prices work adds: cache writes (decisions: "Cache writes on OpenAI"), the
 * long-context boundary as the page words it, and ids in the vendor's snapshot forms. Each case: the page
 * and its rates, then the arithmetic.
 */
export const OPENAI_4_CASES: OracleCase[] = [
  // Page: https://developers.openai.com/api/docs/models/gpt-6-astra.md (copy dated 2026-09-24): input $10.00, cached input $1.00, cache writes $12.50, output $50.00 per 1M tokens
  // input 50,000 = 20,000 plain + 10,000 cached + 20,000 written: 20,000 x $10/M = 0.200000000; 10,000 x $1/M =
  //   0.010000000; 20,000 x $12.50/M = 0.250000000; output 4,000 (1,000 reasoning inside) x $50/M = 0.200000000;
  //   total 0.660000000
  {
    id: "openai-23-cache-writes-gpt-6-astra",
    receivedAt: "2026-11-20T10:00:00Z",
    request: request("openai", "gpt-6-astra", [
      tokens({
        input_tokens: 50000,
        cached_tokens: 10000,
        cache_creation_input_tokens: 20000,
        output_tokens: 4000,
        reasoning_tokens: 1000,
      }),
    ]),
    expectedCostUsd: "0.660000000",
  },
  // Page: gpt-6-astra.md, as above (dated snapshot of the same model): cache writes $12.50, output $50.00
  // 8,000 written x $12.50/M = 0.100000000; output 500 x $50/M = 0.025000000; total 0.125000000
  {
    id: "openai-24-cache-writes-only-gpt-6-astra-snapshot",
    receivedAt: "2026-11-20T10:00:00Z",
    request: request("openai", "gpt-6-astra-2026-10-01", [
      tokens({ input_tokens: 8000, cache_creation_input_tokens: 8000, output_tokens: 500 }),
    ]),
    expectedCostUsd: "0.125000000",
  },
  // Page: gpt-6-astra.md, as above: 'More than 272K input tokens ... 2x input and cache rates and 1.5x output for the full request'
  // input exactly 272,000 is not more than 272K: standard rates. 100,000 plain x $10/M = 1.000000000; 72,000 cached x
  //   $1/M = 0.072000000; 100,000 written x $12.50/M = 1.250000000; output 1,000 x $50/M = 0.050000000; total
  //   2.372000000
  {
    id: "openai-25-gpt-6-astra-at-272000-standard-with-writes",
    receivedAt: "2026-11-20T10:00:00Z",
    request: request("openai", "gpt-6-astra", [
      tokens({ input_tokens: 272000, cached_tokens: 72000, cache_creation_input_tokens: 100000, output_tokens: 1000 }),
    ]),
    expectedCostUsd: "2.372000000",
  },
  // Page: gpt-6-astra.md, as above: 272,001 input tokens is more than 272K: input $20, cached $2, writes $25, output $75
  // 100,001 plain x $20/M = 2.000020000; 72,000 cached x $2/M = 0.144000000; 100,000 written x $25/M = 2.500000000;
  //   output 1,000 x $75/M = 0.075000000; total 4.719020000
  {
    id: "openai-26-gpt-6-astra-at-272001-long-with-writes",
    receivedAt: "2026-11-20T10:00:00Z",
    request: request("openai", "gpt-6-astra", [
      tokens({ input_tokens: 272001, cached_tokens: 72000, cache_creation_input_tokens: 100000, output_tokens: 1000 }),
    ]),
    expectedCostUsd: "4.719020000",
  },
  // Page: https://developers.openai.com/api/docs/models/gpt-4o.md (copy 2026-09-24): gpt-4o-2024-11-20 is a gpt-4o
  //   snapshot at input $2.50, cached $1.25, output $10.00; the page has no cache-write price, so writes are billed
  //   at the input rate (decisions: "Cache writes on OpenAI")
  // input 10,000 = 4,000 plain + 2,000 cached + 4,000 written: 8,000 x $2.50/M = 0.020000000; 2,000 x $1.25/M =
  //   0.002500000; output 1,000 x $10/M = 0.010000000; total 0.032500000
  {
    id: "openai-27-gpt-4o-snapshot-writes-at-input-rate",
    receivedAt: "2026-11-20T10:00:00Z",
    request: request("openai", "gpt-4o-2024-11-20", [
      tokens({ input_tokens: 10000, cached_tokens: 2000, cache_creation_input_tokens: 4000, output_tokens: 1000 }),
    ]),
    expectedCostUsd: "0.032500000",
  },
  // Page: https://developers.openai.com/api/docs/models/gpt-4o-mini.md (copy 2026-09-24): input $0.15, output $0.60;
  //   no cache-write price: writes at the input rate
  // 20,000 input (5,000 written) x $0.15/M = 0.003000000; output 2,000 x $0.60/M = 0.001200000; total 0.004200000
  {
    id: "openai-28-gpt-4o-mini-writes-at-input-rate",
    receivedAt: "2026-11-20T10:00:00Z",
    request: request("openai", "gpt-4o-mini", [
      tokens({ input_tokens: 20000, cache_creation_input_tokens: 5000, output_tokens: 2000 }),
    ]),
    expectedCostUsd: "0.004200000",
  },
  // Page: https://openai.com/api-priority-processing/ (read 2026-11-22): GPT-4o mini $0.25 / $0.125 cached / $1.00
  // 6,000 x $0.25/M = 0.001500000; 4,000 cached x $0.125/M = 0.000500000; output 1,000 x $1/M = 0.001000000; total
  //   0.003000000
  {
    id: "openai-29-priority-gpt-4o-mini-snapshot",
    receivedAt: "2026-11-21T10:00:00Z",
    request: request(
      "openai",
      "gpt-4o-mini-2024-07-18",
      [tokens({ input_tokens: 10000, cached_tokens: 4000, output_tokens: 1000 })],
      { model_tier: "priority" },
    ),
    expectedCostUsd: "0.003000000",
  },
  // Page: priority processing (read 2026-11-22): GPT-4.1 mini $0.70 / $0.175 cached / $2.80
  // 80,000 x $0.70/M = 0.056000000; 20,000 cached x $0.175/M = 0.003500000; output 10,000 x $2.80/M = 0.028000000;
  //   total 0.087500000
  {
    id: "openai-30-priority-gpt-4.1-mini-snapshot",
    receivedAt: "2026-11-21T10:00:00Z",
    request: request(
      "openai",
      "gpt-4.1-mini-2025-04-14",
      [tokens({ input_tokens: 100000, cached_tokens: 20000, output_tokens: 10000 })],
      { model_tier: "priority" },
    ),
    expectedCostUsd: "0.087500000",
  },
  // Page: priority processing (read 2026-11-22): GPT-5 $2.50 / $0.25 cached / $20.00
  // 20,000 x $2.50/M = 0.050000000; 10,000 cached x $0.25/M = 0.002500000; output 5,000 (3,000 reasoning inside) x
  //   $20/M = 0.100000000; total 0.152500000
  {
    id: "openai-31-priority-gpt-5-snapshot",
    receivedAt: "2026-11-21T10:00:00Z",
    request: request(
      "openai",
      "gpt-5-2025-08-07",
      [tokens({ input_tokens: 30000, cached_tokens: 10000, output_tokens: 5000, reasoning_tokens: 3000 })],
      { model_tier: "priority" },
    ),
    expectedCostUsd: "0.152500000",
  },
  // Page: priority processing (read 2026-11-22): o3 $3.50 / $0.875 cached / $14.00
  // 10,000 x $3.50/M = 0.035000000; output 10,000 (8,000 reasoning inside) x $14/M = 0.140000000; total 0.175000000
  {
    id: "openai-32-priority-o3-snapshot",
    receivedAt: "2026-11-21T10:00:00Z",
    request: request(
      "openai",
      "o3-2025-04-16",
      [tokens({ input_tokens: 10000, output_tokens: 10000, reasoning_tokens: 8000 })],
      { model_tier: "priority" },
    ),
    expectedCostUsd: "0.175000000",
  },
  // Page: priority processing (read 2026-11-22): GPT-5 mini $0.45 / $0.045 cached / $3.60
  // 10,000 x $0.45/M = 0.004500000; 30,000 cached x $0.045/M = 0.001350000; output 2,000 x $3.60/M = 0.007200000;
  //   total 0.013050000
  {
    id: "openai-33-priority-gpt-5-mini",
    receivedAt: "2026-11-21T10:00:00Z",
    request: request(
      "openai",
      "gpt-5-mini",
      [tokens({ input_tokens: 40000, cached_tokens: 30000, output_tokens: 2000 })],
      { model_tier: "priority" },
    ),
    expectedCostUsd: "0.013050000",
  },
  // Page: priority processing (read 2026-11-22): GPT-4.1 $3.50 / $0.875 cached / $14.00 (the id in capitals, as
  //   some SDKs echo it)
  // 50,000 x $3.50/M = 0.175000000; output 5,000 x $14/M = 0.070000000; total 0.245000000
  {
    id: "openai-34-priority-gpt-4.1-capitals",
    receivedAt: "2026-11-21T10:00:00Z",
    request: request("openai", "GPT-4.1", [tokens({ input_tokens: 50000, output_tokens: 5000 })], {
      model_tier: "Priority",
    }),
    expectedCostUsd: "0.245000000",
  },
  // Page: priority processing (read 2026-11-22): GPT-4o (2024-08-06 and 2024-11-20) $4.25 / $2.125 cached / $17.00
  // 12,000 x $4.25/M = 0.051000000; 8,000 cached x $2.125/M = 0.017000000; output 2,000 x $17/M = 0.034000000;
  //   total 0.102000000
  {
    id: "openai-35-priority-gpt-4o-2024-11-20",
    receivedAt: "2026-11-21T10:00:00Z",
    request: request(
      "openai",
      "gpt-4o-2024-11-20",
      [tokens({ input_tokens: 20000, cached_tokens: 8000, output_tokens: 2000 })],
      { model_tier: "priority" },
    ),
    expectedCostUsd: "0.102000000",
  },
  // Page: https://developers.openai.com/api/docs/models/gpt-image-1-mini.md (read 2026-11-22): high, 1024x1536 or
  //   1536x1024: $0.052 per image
  // 2 x $0.052 = 0.104000000
  {
    id: "openai-36-gpt-image-1-mini-high-landscape",
    receivedAt: "2026-11-21T10:00:00Z",
    request: request("openai", "gpt-image-1-mini", [
      { type: "images", metrics: { generated: 2, quality: "high", width_px: 1536, height_px: 1024 } },
    ]),
    expectedCostUsd: "0.104000000",
  },
  // Page: https://developers.openai.com/api/docs/models/dall-e-3.md (read 2026-11-22): HD, 1024x1792 or 1792x1024:
  //   $0.12 per image
  // 1 x $0.12 = 0.120000000
  {
    id: "openai-37-dall-e-3-hd-1792",
    receivedAt: "2026-11-21T10:00:00Z",
    request: request("openai", "dall-e-3", [
      { type: "images", metrics: { generated: 1, quality: "hd", width_px: 1792, height_px: 1024 } },
    ]),
    expectedCostUsd: "0.120000000",
  },
  // Page: https://developers.openai.com/api/docs/models/gpt-image-1.md (read 2026-11-22): high, 1024x1024: $0.167
  // 3 x $0.167 = 0.501000000
  {
    id: "openai-38-gpt-image-1-high-square",
    receivedAt: "2026-11-21T10:00:00Z",
    request: request("openai", "gpt-image-1", [
      { type: "images", metrics: { generated: 3, quality: "high", size_px: 1024 } },
    ]),
    expectedCostUsd: "0.501000000",
  },
];
