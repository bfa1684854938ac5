import type { OracleCase } from "../oracle-case.ts";

/** OpenAI: costs worked out by hand from the vendor's own pages (each case: page, then arithmetic). */
export const OPENAI_3_CASES: OracleCase[] = [
  // Page: https://developers.openai.com/api/docs/models/sora-2.md (read 2026-11-22)
  // 8 s x $0.10/s = 0.800000000
  {
    id: "openai-19-video-seconds-sora-2",
    receivedAt: "2026-11-01T10:00:00Z",
    request: {
      provider: "openai",
      model: "sora-2",
      usage: [{ type: "video_seconds", metrics: { processed_seconds: 8 } }],
      context: { billable_customer_id: "cust-oracle" },
    },
    expectedCostUsd: "0.800000000",
  },
  // Page: https://help.openai.com/en/articles/9197833-batch-api-faq (50%) +
  //   https://developers.openai.com/api/docs/models/gpt-4o-mini.md (copy 2026-09-24)
  // batch = 50% of standard: input 100000 x $0.075/M = 0.007500000; output 20000 x $0.30/M = 0.006000000; total
  //   0.013500000
  {
    id: "openai-20-batch-gpt-4o-mini",
    receivedAt: "2026-10-03T02:00:00Z",
    request: {
      provider: "openai",
      model: "gpt-4o-mini",
      model_tier: "batch",
      usage: [{ type: "tokens", metrics: { input_tokens: 100000, output_tokens: 20000, total_tokens: 120000 } }],
      context: { billable_customer_id: "cust-oracle" },
    },
    expectedCostUsd: "0.013500000",
  },
  // Page: https://developers.openai.com/api/docs/models/gpt-6-astra.md (copy dated 2026-09-24) +
  //   https://developers.openai.com/api/docs/guides/flex-processing.md
  // flex = 50% of standard (page: 'Batch and Flex are priced at 50% of Standard rates'): uncached 10000 x $5/M =
  //   0.050000000; cached 10000 x $0.50/M = 0.005000000; output 5000 (3000 reasoning inside) x $25/M = 0.125000000;
  //   total 0.180000000 (input 20000 < 272K: no long-context multiplier)
  {
    id: "openai-21-flex-gpt-6-astra",
    receivedAt: "2026-10-15T03:00:00Z",
    request: {
      provider: "openai",
      model: "gpt-6-astra",
      model_tier: "flex",
      usage: [
        {
          type: "tokens",
          metrics: {
            input_tokens: 20000,
            cached_tokens: 10000,
            output_tokens: 5000,
            reasoning_tokens: 3000,
            total_tokens: 25000,
          },
        },
      ],
      context: { billable_customer_id: "cust-oracle" },
    },
    expectedCostUsd: "0.180000000",
  },
  // Page: https://openai.com/api-priority-processing/ (ja-JP/zh-Hans-CN copies show the GPT-4.1 nano row; read
  //   2026-11-22)
  // priority GPT-4.1 nano $0.20 / $0.050 cached / $0.80: uncached 6000 x $0.20/M = 0.001200000; cached 4000 x
  //   $0.05/M = 0.000200000; output 1000 x $0.80/M = 0.000800000; total 0.002200000
  {
    id: "openai-22-priority-gpt-4.1-nano-cached",
    receivedAt: "2026-03-12T12:00:00Z",
    request: {
      provider: "openai",
      model: "gpt-4.1-nano-2025-04-14",
      model_tier: "priority",
      usage: [
        {
          type: "tokens",
          metrics: { input_tokens: 10000, cached_tokens: 4000, output_tokens: 1000, total_tokens: 11000 },
        },
      ],
      context: { billable_customer_id: "cust-oracle" },
    },
    expectedCostUsd: "0.002200000",
  },
  // Page: https://openai.com/api-priority-processing/ (ja-JP/zh-Hans-CN copies; read 2026-11-22)
  // priority row 'GPT-4o gpt-4o-2024-11-20 gpt-4o-2024-08-06' $4.25 in / $17 out: input 2000 x $4.25/M =
  //   0.008500000; output 1000 x $17/M = 0.017000000; total 0.025500000 (factor 1.7, not 2)
  {
    id: "openai-23-priority-dated-gpt-4o-2024-11-20",
    receivedAt: "2026-10-04T12:00:00Z",
    request: {
      provider: "openai",
      model: "gpt-4o-2024-11-20",
      model_tier: "priority",
      usage: [{ type: "tokens", metrics: { input_tokens: 2000, output_tokens: 1000, total_tokens: 3000 } }],
      context: { billable_customer_id: "cust-oracle" },
    },
    expectedCostUsd: "0.025500000",
  },
  // Page: https://developers.openai.com/api/docs/models/gpt-realtime-whisper.md (read 2026-11-22)
  // 10 s = 1/6 min x $0.017/min = 0.0028333333... = 2833333.33 nano, rounded half-up to 2833333 nano = 0.002833333
  //   (assumes per-second proration; page states only $/minute)
  {
    id: "openai-24-rounding-gpt-realtime-whisper",
    receivedAt: "2026-11-20T17:20:00Z",
    request: {
      provider: "openai",
      model: "gpt-realtime-whisper",
      usage: [{ type: "audio_seconds", metrics: { input_seconds: 10 } }],
      context: { billable_customer_id: "cust-oracle" },
    },
    expectedCostUsd: "0.002833333",
  },
  // Page: https://developers.openai.com/ko-KR/api/docs/models/gpt-4.1-nano (read 2026-11-22)
  // uncached 20000 x $0.10/M = 0.002000000; cached 20000 x $0.025/M = 0.000500000; output 4000 x $0.40/M =
  //   0.001600000; total 0.004100000
  {
    id: "openai-27-dated-cached-gpt-4.1-nano-2025-04-14",
    receivedAt: "2026-03-12T13:00:00Z",
    request: {
      provider: "openai",
      model: "gpt-4.1-nano-2025-04-14",
      usage: [
        {
          type: "tokens",
          metrics: { input_tokens: 40000, cached_tokens: 20000, output_tokens: 4000, total_tokens: 44000 },
        },
      ],
      context: { billable_customer_id: "cust-oracle" },
    },
    expectedCostUsd: "0.004100000",
  },
  // Page: https://developers.openai.com/api/docs/models/compare?model=gpt-realtime (read 2026-11-22)
  // text in 5000 x $4/M = 0.020000000; text out 1000 x $16/M = 0.016000000; total 0.036000000
  {
    id: "openai-28-realtime-alias-text-only-gpt-realtime",
    receivedAt: "2026-11-20T18:00:00Z",
    request: {
      provider: "openai",
      model: "gpt-realtime",
      usage: [{ type: "tokens", metrics: { input_tokens: 5000, output_tokens: 1000, total_tokens: 6000 } }],
      context: { billable_customer_id: "cust-oracle" },
    },
    expectedCostUsd: "0.036000000",
  },
];
