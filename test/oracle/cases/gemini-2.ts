import type { OracleCase } from "../oracle-case.ts";

/** Google Gemini: costs worked out by hand from the vendor's own pages (each case: page, then arithmetic). */
export const GEMINI_2_CASES: OracleCase[] = [
  // Page: https://ai.google.dev/gemini-api/docs/pricing (copy last updated 2025-10-02: context caching $0.31,
  //   prompts <= 200k)
  // uncached 20,000 x $1.25/M = $0.025000000; cached 80,000 x $0.31/M = $0.024800000; output 1,000 x $10.00/M =
  //   $0.010000000; total $0.059800000
  // Note: the page says $0.31 (25% of 1.25 would be 0.3125); the vendor's printed figure is used
  {
    id: "G8-gemini-2.5-pro-cached-2025-old-cache-rate",
    receivedAt: "2025-09-20T12:00:00Z",
    request: {
      provider: "gemini",
      model: "gemini-2.5-pro",
      usage: [
        {
          type: "tokens",
          metrics: { input_tokens: 100000, cached_tokens: 80000, output_tokens: 1000, total_tokens: 101000 },
        },
      ],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.059800000",
  },
  // Page: https://ai.google.dev/gemini-api/docs/pricing (copy 2025-10-02; Gemini 2.0 Flash $0.10 text, $0.70 audio,
  //   $0.40 output)
  // text 6,000 x $0.10/M = $0.000600000; audio 4,000 x $0.70/M = $0.002800000; output 2,000 x $0.40/M =
  //   $0.000800000; total $0.004200000
  {
    id: "G9-gemini-2.0-flash-001-audio",
    receivedAt: "2025-09-20T12:00:00Z",
    request: {
      provider: "gemini",
      model: "gemini-2.0-flash-001",
      usage: [
        {
          type: "tokens",
          metrics: { input_tokens: 10000, input_audio_tokens: 4000, output_tokens: 2000, total_tokens: 12000 },
        },
      ],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.004200000",
  },
  // Page: https://ai.google.dev/gemini-api/docs/pricing (copy 2026-06-02; 2.5 Flash-Lite $0.30 audio)
  // audio 10,000 x $0.30/M = $0.003000000; output 1,000 x $0.40/M = $0.000400000; total $0.003400000
  {
    id: "G10-gemini-2.5-flash-lite-all-audio",
    receivedAt: "2026-07-01T12:00:00Z",
    request: {
      provider: "gemini",
      model: "gemini-2.5-flash-lite",
      usage: [
        {
          type: "tokens",
          metrics: { input_tokens: 10000, input_audio_tokens: 10000, output_tokens: 1000, total_tokens: 11000 },
        },
      ],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.003400000",
  },
  // Page: https://ai.google.dev/gemini-api/docs/pricing (copy 2026-06-02; Imagen 4 Standard image price)
  // 3 images x $0.04 = $0.120000000
  {
    id: "G11-imagen-4-standard-images",
    receivedAt: "2026-07-01T12:00:00Z",
    request: {
      provider: "gemini",
      model: "imagen-4.0-generate-001",
      usage: [{ type: "images", metrics: { generated: 3 } }],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.120000000",
  },
  // Page: https://ai.google.dev/gemini-api/docs/pricing (copy 2025-10-02; Imagen 3 image price)
  // 2 images x $0.03 = $0.060000000
  {
    id: "G12-imagen-3-images-2025",
    receivedAt: "2025-09-20T12:00:00Z",
    request: {
      provider: "gemini",
      model: "imagen-3.0-generate-002",
      usage: [{ type: "images", metrics: { generated: 2 } }],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.060000000",
  },
  // Page: https://ai.google.dev/gemini-api/docs/pricing (copy 2026-06-02; "Image output is priced at $30 per
  //   1,000,000 tokens")
  // input 500 x $0.30/M = $0.000150000; image output 1,290 x $30/M = $0.038700000; total $0.038850000
  // Note: the page headline '$0.039 per image' is 1,290 x $30/M = $0.0387 rounded; billing per token gives 0.0387
  {
    id: "G13-gemini-2.5-flash-image-output-tokens",
    receivedAt: "2026-07-01T12:00:00Z",
    request: {
      provider: "gemini",
      model: "gemini-2.5-flash-image",
      usage: [
        {
          type: "tokens",
          metrics: { input_tokens: 500, output_tokens: 1290, output_image_tokens: 1290, total_tokens: 1790 },
        },
      ],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.038850000",
  },
  // Page: https://ai.google.dev/gemini-api/docs/pricing (copy 2025-10-02; Veo 3 Standard video with audio $0.40 per
  //   second)
  // 8 s x $0.40/s = $3.200000000
  {
    id: "G14-veo-3-after-price-cut",
    receivedAt: "2025-10-01T12:00:00Z",
    request: {
      provider: "gemini",
      model: "veo-3.0-generate-001",
      usage: [{ type: "video_seconds", metrics: { processed_seconds: 8 } }],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "3.200000000",
  },
  // Page: https://ai.google.dev/gemini-api/docs/pricing (copy 2026-06-02; '1,500 RPD (free ...), then $35 / 1,000
  //   grounded prompts')
  // input 1,000 x $0.30/M = $0.000300000; output 500 x $2.50/M = $0.001250000; grounding 1 x $35/1,000 =
  //   $0.035000000; total $0.036550000
  // Note: free allowance (1,500 RPD per project) not applied per transaction; see section 5
  {
    id: "G16a-gemini-2.5-flash-google-search-grounding",
    receivedAt: "2026-07-01T12:00:00Z",
    request: {
      provider: "gemini",
      model: "gemini-2.5-flash",
      usage: [
        { type: "tokens", metrics: { input_tokens: 1000, output_tokens: 500, total_tokens: 1500 } },
        { type: "requests", metrics: { count: 1, request_type: "google_grounding" } },
      ],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.036550000",
  },
  // Page: https://ai.google.dev/gemini-api/docs/pricing (copy 2026-06-02; Gemini 3 Flash Preview: '$14 / 1,000
  //   search queries')
  // input 2,000 x $0.50/M = $0.001000000; output 1,000 x $3.00/M = $0.003000000; 3 search queries x $14/1,000 =
  //   $0.042000000; total $0.046000000
  // Note: count = number of search queries (Gemini 3 bills per query); 5,000 free prompts/month not applied
  {
    id: "G16b-gemini-3-flash-search-queries",
    receivedAt: "2026-07-01T12:00:00Z",
    request: {
      provider: "gemini",
      model: "gemini-3-flash-preview",
      usage: [
        { type: "tokens", metrics: { input_tokens: 2000, output_tokens: 1000, total_tokens: 3000 } },
        { type: "requests", metrics: { count: 3, request_type: "google_grounding" } },
      ],
      context: { billable_customer_id: "oracle" },
    },
    expectedCostUsd: "0.046000000",
  },
];
