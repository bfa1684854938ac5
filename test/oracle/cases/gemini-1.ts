import type { OracleCase } from "../oracle-case.ts";

/** Google Gemini: costs worked out by hand from the vendor's own pages (each case: page, then arithmetic). */
export const GEMINI_1_CASES: OracleCase[] = [
  // Page: https://ai.google.dev/gemini-api/docs/pricing (copy last updated 2026-06-02; Gemini 2.5 Pro Standard)
  // prompt 150,000 <= 200k: input 150,000 x $1.25/M = $0.187500000; output (4,000 candidates + 6,000 thoughts) =
  //   10,000 x $10.00/M = $0.100000000; total $0.287500000
  {
    id: "G1-gemini-2.5-pro-below-200k-thinking",
    receivedAt: "2026-07-01T12:00:00Z",
    request: {
      provider: "gemini",
      model: "gemini-2.5-pro",
      usage: [
        {
          type: "tokens",
          metrics: { input_tokens: 150000, output_tokens: 4000, reasoning_tokens: 6000, total_tokens: 160000 },
        },
      ],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.287500000",
  },
  // Page: https://ai.google.dev/gemini-api/docs/pricing (copy 2026-06-02; Gemini 2.5 Pro Standard, prompts > 200k)
  // prompt 250,000 > 200k, whole call at long rates: uncached 150,000 x $2.50/M = $0.375000000; cached 100,000 x
  //   $0.25/M = $0.025000000; output (2,000 + 3,000 thoughts) = 5,000 x $15.00/M = $0.075000000; total $0.475000000
  //   (cache storage $4.50/1M/h is not per call)
  {
    id: "G2-gemini-2.5-pro-above-200k-cached-models-prefix",
    receivedAt: "2026-07-01T12:00:00Z",
    request: {
      provider: "gemini",
      model: "models/gemini-2.5-pro",
      usage: [
        {
          type: "tokens",
          metrics: {
            input_tokens: 250000,
            cached_tokens: 100000,
            output_tokens: 2000,
            thinking_tokens: 3000,
            total_tokens: 255000,
          },
        },
      ],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.475000000",
  },
  // Page: https://ai.google.dev/gemini-api/docs/pricing (copy 2026-06-02)
  // "prompts <= 200k tokens": 200,000 x $1.25/M = $0.250000000; 1,000 x $10.00/M = $0.010000000; total $0.260000000
  {
    id: "G3a-gemini-2.5-pro-exactly-200000-is-lower-tier",
    receivedAt: "2026-07-01T12:00:00Z",
    request: {
      provider: "gemini",
      model: "gemini-2.5-pro",
      usage: [{ type: "tokens", metrics: { input_tokens: 200000, output_tokens: 1000, total_tokens: 201000 } }],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.260000000",
  },
  // Page: https://ai.google.dev/gemini-api/docs/pricing (copy 2026-06-02)
  // "prompts > 200k tokens": 200,001 x $2.50/M = $0.500002500; 1,000 x $15.00/M = $0.015000000; total $0.515002500
  {
    id: "G3b-gemini-2.5-pro-200001-is-higher-tier",
    receivedAt: "2026-07-01T12:00:00Z",
    request: {
      provider: "gemini",
      model: "gemini-2.5-pro",
      usage: [{ type: "tokens", metrics: { input_tokens: 200001, output_tokens: 1000, total_tokens: 201001 } }],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.515002500",
  },
  // Page: https://ai.google.dev/gemini-api/docs/pricing (copy 2026-06-02; Gemini 2.5 Flash: $0.30 text/image/video,
  //   $1.00 audio)
  // text 10,000 - 6,000 = 4,000 x $0.30/M = $0.001200000; audio 6,000 x $1.00/M = $0.006000000; output (500 + 1,500
  //   thoughts) = 2,000 x $2.50/M = $0.005000000; total $0.012200000
  {
    id: "G4-gemini-2.5-flash-audio-input-thinking",
    receivedAt: "2026-07-01T12:00:00Z",
    request: {
      provider: "gemini",
      model: "gemini-2.5-flash",
      usage: [
        {
          type: "tokens",
          metrics: {
            input_tokens: 10000,
            input_audio_tokens: 6000,
            output_tokens: 500,
            reasoning_tokens: 1500,
            total_tokens: 12000,
          },
        },
      ],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.012200000",
  },
  // Page: https://ai.google.dev/gemini-api/docs/pricing (copy 2026-06-02; context caching $0.03 text)
  // uncached 8,000 x $0.30/M = $0.002400000; cached 12,000 x $0.03/M = $0.000360000; output 1,000 x $2.50/M =
  //   $0.002500000; total $0.005260000
  {
    id: "G5-gemini-2.5-flash-cached-text",
    receivedAt: "2026-07-01T12:00:00Z",
    request: {
      provider: "gemini",
      model: "gemini-2.5-flash",
      usage: [
        {
          type: "tokens",
          metrics: { input_tokens: 20000, cached_tokens: 12000, output_tokens: 1000, total_tokens: 21000 },
        },
      ],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.005260000",
  },
  // Page: https://ai.google.dev/gemini-api/docs/pricing (copy 2026-06-02; context caching $0.1 audio)
  // all 12,000 audio tokens are the cached part: cached audio 12,000 x $0.10/M = $0.001200000; uncached text 8,000
  //   x $0.30/M = $0.002400000; output 1,000 x $2.50/M = $0.002500000; total $0.006100000
  // Note: metric name cached_audio_tokens is an assumption (decisions.md names none); adapt to the implemented name
  {
    id: "G5b-gemini-2.5-flash-cached-audio",
    receivedAt: "2026-07-01T12:00:00Z",
    request: {
      provider: "gemini",
      model: "gemini-2.5-flash",
      usage: [
        {
          type: "tokens",
          metrics: {
            input_tokens: 20000,
            cached_tokens: 12000,
            input_audio_tokens: 12000,
            cached_audio_tokens: 12000,
            output_tokens: 1000,
            total_tokens: 21000,
          },
        },
      ],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.006100000",
  },
  // Page: https://ai.google.dev/gemini-api/docs/pricing (copy 2026-06-02; Gemini 2.5 Pro Batch table)
  // batch <= 200k: 100,000 x $0.625/M = $0.062500000; 20,000 x $5.00/M = $0.100000000; total $0.162500000
  {
    id: "G6a-gemini-2.5-pro-batch",
    receivedAt: "2026-07-01T12:00:00Z",
    request: {
      provider: "gemini",
      model: "gemini-2.5-pro",
      model_tier: "batch",
      usage: [{ type: "tokens", metrics: { input_tokens: 100000, output_tokens: 20000, total_tokens: 120000 } }],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.162500000",
  },
  // Page: https://ai.google.dev/gemini-api/docs/pricing (copy 2026-06-02; Batch: $1.25 / $7.50 prompts > 200k)
  // batch stacks on long context: 300,000 x $1.25/M = $0.375000000; 10,000 x $7.50/M = $0.075000000; total
  //   $0.450000000
  {
    id: "G6b-gemini-2.5-pro-batch-above-200k",
    receivedAt: "2026-07-01T12:00:00Z",
    request: {
      provider: "gemini",
      model: "gemini-2.5-pro",
      model_tier: "batch",
      usage: [{ type: "tokens", metrics: { input_tokens: 300000, output_tokens: 10000, total_tokens: 310000 } }],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.450000000",
  },
  // Page: https://ai.google.dev/gemini-api/docs/pricing (copy 2026-06-02; Gemini 2.5 Flash Priority table)
  // priority: 10,000 x $0.54/M = $0.005400000; 1,000 x $4.50/M = $0.004500000; total $0.009900000
  {
    id: "G7-gemini-2.5-flash-priority",
    receivedAt: "2026-07-01T12:00:00Z",
    request: {
      provider: "gemini",
      model: "gemini-2.5-flash",
      model_tier: "priority",
      usage: [{ type: "tokens", metrics: { input_tokens: 10000, output_tokens: 1000, total_tokens: 11000 } }],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.009900000",
  },
];
