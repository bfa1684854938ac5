import type { OracleCase } from "../oracle-case.ts";

/** OpenAI: costs worked out by hand from the vendor's own pages (each case: page, then arithmetic). */
export const OPENAI_1_CASES: OracleCase[] = [
  // Page: https://developers.openai.com/api/docs/models/gpt-4o.md (copy dated 2026-09-24)
  // input 1000 x $2.50/M = 0.002500000; output 500 x $10/M = 0.005000000; total 0.007500000
  {
    id: "openai-01-plain-text-gpt-4o",
    receivedAt: "2026-10-01T12:00:00Z",
    request: {
      provider: "openai",
      model: "gpt-4o",
      usage: [{ type: "tokens", metrics: { input_tokens: 1000, output_tokens: 500, total_tokens: 1500 } }],
      context: { billable_customer_id: "cust-oracle" },
    },
    expectedCostUsd: "0.007500000",
  },
  // Page: https://developers.openai.com/api/docs/models/gpt-4o.md (copy dated 2026-09-24)
  // uncached (2000-1000)=1000 x $2.50/M = 0.002500000; cached 1000 x $1.25/M = 0.001250000; output 100 x $10/M =
  //   0.001000000; total 0.004750000
  {
    id: "openai-02-cached-gpt-4o",
    receivedAt: "2026-10-01T12:05:00Z",
    request: {
      provider: "openai",
      model: "gpt-4o",
      usage: [
        {
          type: "tokens",
          metrics: { input_tokens: 2000, cached_tokens: 1000, output_tokens: 100, total_tokens: 2100 },
        },
      ],
      context: { billable_customer_id: "cust-oracle" },
    },
    expectedCostUsd: "0.004750000",
  },
  // Page: https://developers.openai.com/api/docs/models/gpt-4o.md (Default snapshot + Snapshots list; copy dated
  //   2026-09-24)
  // gpt-4o-2024-08-06 is gpt-4o's default snapshot (same rates). input 10000 x $2.50/M = 0.025000000; output 2000 x
  //   $10/M = 0.020000000; total 0.045000000
  {
    id: "openai-03-dated-id-gpt-4o-2024-08-06",
    receivedAt: "2026-10-02T08:00:00Z",
    request: {
      provider: "openai",
      model: "gpt-4o-2024-08-06",
      usage: [{ type: "tokens", metrics: { input_tokens: 10000, output_tokens: 2000, total_tokens: 12000 } }],
      context: { billable_customer_id: "cust-oracle" },
    },
    expectedCostUsd: "0.045000000",
  },
  // Page: https://developers.openai.com/api/docs/models/gpt-4o-mini.md (copy dated 2026-09-24)
  // uncached 12000 x $0.15/M = 0.001800000; cached 8000 x $0.075/M = 0.000600000; output 1000 x $0.60/M =
  //   0.000600000; total 0.003000000
  {
    id: "openai-04-cached-gpt-4o-mini",
    receivedAt: "2026-10-02T09:00:00Z",
    request: {
      provider: "openai",
      model: "gpt-4o-mini-2024-07-18",
      usage: [
        {
          type: "tokens",
          metrics: { input_tokens: 20000, cached_tokens: 8000, output_tokens: 1000, total_tokens: 21000 },
        },
      ],
      context: { billable_customer_id: "cust-oracle" },
    },
    expectedCostUsd: "0.003000000",
  },
  // Page: https://developers.openai.com/api/docs/models/o4-mini.md (read 2026-11-22)
  // input 5000 x $1.10/M = 0.005500000; output 3000 (includes 2500 reasoning, not added again) x $4.40/M =
  //   0.013200000; total 0.018700000
  {
    id: "openai-05-reasoning-o4-mini",
    receivedAt: "2026-06-15T10:00:00Z",
    request: {
      provider: "openai",
      model: "o4-mini-2025-04-16",
      usage: [
        {
          type: "tokens",
          metrics: { input_tokens: 5000, output_tokens: 3000, reasoning_tokens: 2500, total_tokens: 8000 },
        },
      ],
      context: { billable_customer_id: "cust-oracle" },
    },
    expectedCostUsd: "0.018700000",
  },
  // Page: https://developers.openai.com/api/docs/models/gpt-5-nano.md (read 2026-11-22)
  // uncached 60000 x $0.05/M = 0.003000000; cached 40000 x $0.005/M = 0.000200000; output 20000 (15000 reasoning
  //   inside) x $0.40/M = 0.008000000; total 0.011200000
  {
    id: "openai-06-reasoning-and-cache-gpt-5-nano",
    receivedAt: "2026-06-15T11:00:00Z",
    request: {
      provider: "openai",
      model: "gpt-5-nano-2025-08-07",
      usage: [
        {
          type: "tokens",
          metrics: {
            input_tokens: 100000,
            cached_tokens: 40000,
            output_tokens: 20000,
            reasoning_tokens: 15000,
            total_tokens: 120000,
          },
        },
      ],
      context: { billable_customer_id: "cust-oracle" },
    },
    expectedCostUsd: "0.011200000",
  },
  // Page: https://developers.openai.com/api/docs/models/gpt-4o-audio-preview.md (read 2026-11-22; page marks model
  //   shut down, so received_at is earlier)
  // text in (1500-1000)=500 x $2.50/M = 0.001250000; audio in 1000 x $40/M = 0.040000000; text out (800-600)=200 x
  //   $10/M = 0.002000000; audio out 600 x $80/M = 0.048000000; total 0.091250000 (catalog text-only would give
  //   0.011750000)
  {
    id: "openai-07-audio-in-out-gpt-4o-audio-preview",
    receivedAt: "2026-03-10T14:00:00Z",
    request: {
      provider: "openai",
      model: "gpt-4o-audio-preview-2025-06-03",
      usage: [
        {
          type: "tokens",
          metrics: {
            input_tokens: 1500,
            input_audio_tokens: 1000,
            output_tokens: 800,
            output_audio_tokens: 600,
            total_tokens: 2300,
          },
        },
      ],
      context: { billable_customer_id: "cust-oracle" },
    },
    expectedCostUsd: "0.091250000",
  },
  // Page: https://developers.openai.com/api/docs/models/gpt-4o-mini-audio-preview.md (read 2026-11-22)
  // text in 1000 x $0.15/M = 0.000150000; audio in 2000 x $10/M = 0.020000000; text out 200 x $0.60/M =
  //   0.000120000; audio out 800 x $20/M = 0.016000000; total 0.036270000
  {
    id: "openai-08-audio-in-out-gpt-4o-mini-audio-preview",
    receivedAt: "2026-03-10T14:05:00Z",
    request: {
      provider: "openai",
      model: "gpt-4o-mini-audio-preview-2024-12-17",
      usage: [
        {
          type: "tokens",
          metrics: {
            input_tokens: 3000,
            input_audio_tokens: 2000,
            output_tokens: 1000,
            output_audio_tokens: 800,
            total_tokens: 4000,
          },
        },
      ],
      context: { billable_customer_id: "cust-oracle" },
    },
    expectedCostUsd: "0.036270000",
  },
  // Page: https://developers.openai.com/api/docs/models/gpt-4o-mini-realtime-preview.md (read 2026-11-22)
  // input text = 10000-8000 = 2000, of which cached 1000 (all text, cached_audio_tokens 0): uncached text 1000 x
  //   $0.60/M = 0.000600000; cached text 1000 x $0.30/M = 0.000300000; audio in 8000 x $10/M = 0.080000000; text
  //   out 300 x $2.40/M = 0.000720000; audio out 1200 x $20/M = 0.024000000; total 0.105620000
  {
    id: "openai-09-realtime-mini-audio-and-cached-text",
    receivedAt: "2026-03-11T09:00:00Z",
    request: {
      provider: "openai",
      model: "gpt-4o-mini-realtime-preview-2024-12-17",
      usage: [
        {
          type: "tokens",
          metrics: {
            input_tokens: 10000,
            cached_tokens: 1000,
            cached_audio_tokens: 0,
            input_audio_tokens: 8000,
            output_tokens: 1500,
            output_audio_tokens: 1200,
            total_tokens: 11500,
          },
        },
      ],
      context: { billable_customer_id: "cust-oracle" },
    },
    expectedCostUsd: "0.105620000",
  },
];
