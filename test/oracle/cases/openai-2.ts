import type { OracleCase } from "../oracle-case.ts";

/** OpenAI: costs worked out by hand from the vendor's own pages (each case: page, then arithmetic). */
export const OPENAI_2_CASES: OracleCase[] = [
  // Page: https://developers.openai.com/api/docs/models/gpt-realtime-1.5.md (read 2026-11-22)
  // text in (6000-4000-1000)=1000 x $4/M = 0.004000000; audio in 4000 x $32/M = 0.128000000; image in 1000 x $5/M =
  //   0.005000000; text out 500 x $16/M = 0.008000000; audio out 1500 x $64/M = 0.096000000; total 0.241000000
  {
    id: "openai-10-realtime-audio-and-image-gpt-realtime-1.5",
    receivedAt: "2026-11-20T16:00:00Z",
    request: {
      provider: "openai",
      model: "gpt-realtime-1.5",
      usage: [
        {
          type: "tokens",
          metrics: {
            input_tokens: 6000,
            input_audio_tokens: 4000,
            input_image_tokens: 1000,
            output_tokens: 2000,
            output_audio_tokens: 1500,
            total_tokens: 8000,
          },
        },
      ],
      context: { billable_customer_id: "cust-oracle" },
    },
    expectedCostUsd: "0.241000000",
  },
  // Page: https://developers.openai.com/api/docs/models/gpt-4o-realtime-preview (read 2026-11-22; shut down now)
  // text in 1000 x $5/M = 0.005000000; audio in 2000 x $40/M = 0.080000000; text out 200 x $20/M = 0.004000000;
  //   audio out 800 x $80/M = 0.064000000; total 0.153000000
  {
    id: "openai-11-realtime-dated-gpt-4o-realtime-preview-2024-12-17",
    receivedAt: "2025-05-01T10:00:00Z",
    request: {
      provider: "openai",
      model: "gpt-4o-realtime-preview-2024-12-17",
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
    expectedCostUsd: "0.153000000",
  },
  // Page: https://developers.openai.com/api/docs/models/gpt-audio.md (read 2026-11-22)
  // text in 500 x $2.50/M = 0.001250000; audio in 1500 x $32/M = 0.048000000; text out 100 x $10/M = 0.001000000;
  //   audio out 900 x $64/M = 0.057600000; total 0.107850000
  {
    id: "openai-12-audio-gpt-audio",
    receivedAt: "2026-11-20T16:10:00Z",
    request: {
      provider: "openai",
      model: "gpt-audio-2025-08-28",
      usage: [
        {
          type: "tokens",
          metrics: {
            input_tokens: 2000,
            input_audio_tokens: 1500,
            output_tokens: 1000,
            output_audio_tokens: 900,
            total_tokens: 3000,
          },
        },
      ],
      context: { billable_customer_id: "cust-oracle" },
    },
    expectedCostUsd: "0.107850000",
  },
  // Page: https://developers.openai.com/api/docs/models/gpt-image-1.md (read 2026-11-22; shut down 2026-10-23 per
  //   ja-JP copy)
  // text in 200 x $5/M = 0.001000000; image in 1000 x $10/M = 0.010000000; image out 4160 x $40/M = 0.166400000;
  //   total 0.177400000
  {
    id: "openai-13-image-tokens-gpt-image-1",
    receivedAt: "2026-09-15T12:00:00Z",
    request: {
      provider: "openai",
      model: "gpt-image-1",
      usage: [
        {
          type: "tokens",
          metrics: {
            input_tokens: 1200,
            input_image_tokens: 1000,
            output_tokens: 4160,
            output_image_tokens: 4160,
            total_tokens: 5360,
          },
        },
      ],
      context: { billable_customer_id: "cust-oracle" },
    },
    expectedCostUsd: "0.177400000",
  },
  // Page: https://developers.openai.com/api/docs/models/gpt-image-1.md Image generation table (read 2026-11-22)
  // 2 images x $0.042 (medium, 1024x1024) = 0.084000000
  {
    id: "openai-14-per-image-gpt-image-1",
    receivedAt: "2026-09-15T12:10:00Z",
    request: {
      provider: "openai",
      model: "gpt-image-1",
      usage: [{ type: "images", metrics: { generated: 2, quality: "medium", size_px: 1024 } }],
      context: { billable_customer_id: "cust-oracle" },
    },
    expectedCostUsd: "0.084000000",
  },
  // Page: https://developers.openai.com/api/docs/models/dall-e-3.md (older priced copy; newer copy: removed from
  //   API; read 2026-11-22)
  // 3 images x $0.08 (HD, 1024x1024) = 0.240000000
  {
    id: "openai-15-per-image-dall-e-3-hd",
    receivedAt: "2025-03-01T12:00:00Z",
    request: {
      provider: "openai",
      model: "dall-e-3",
      usage: [{ type: "images", metrics: { generated: 3, quality: "hd", size_px: 1024 } }],
      context: { billable_customer_id: "cust-oracle" },
    },
    expectedCostUsd: "0.240000000",
  },
  // Page: https://developers.openai.com/api/docs/models/whisper-1.md (read 2026-11-22)
  // 90 s = 1.5 min x $0.006/min = 0.009000000
  {
    id: "openai-16-transcription-seconds-whisper-1",
    receivedAt: "2026-11-20T17:00:00Z",
    request: {
      provider: "openai",
      model: "whisper-1",
      usage: [{ type: "audio_seconds", metrics: { input_seconds: 90 } }],
      context: { billable_customer_id: "cust-oracle" },
    },
    expectedCostUsd: "0.009000000",
  },
  // Page: https://developers.openai.com/api/docs/models/gpt-transcribe (read 2026-11-22)
  // 120 s = 2 min x $0.0045/min = 0.009000000
  {
    id: "openai-17-transcription-seconds-gpt-transcribe",
    receivedAt: "2026-11-20T17:05:00Z",
    request: {
      provider: "openai",
      model: "gpt-transcribe",
      usage: [{ type: "audio_seconds", metrics: { input_seconds: 120 } }],
      context: { billable_customer_id: "cust-oracle" },
    },
    expectedCostUsd: "0.009000000",
  },
  // Page: https://developers.openai.com/ja-JP/api/docs/models/gpt-4o-mini-tts (read 2026-11-22)
  // text in 1000 x $0.60/M = 0.000600000; audio out 5000 x $12/M = 0.060000000; total 0.060600000
  {
    id: "openai-18-tts-tokens-gpt-4o-mini-tts",
    receivedAt: "2026-11-20T17:10:00Z",
    request: {
      provider: "openai",
      model: "gpt-4o-mini-tts",
      usage: [
        {
          type: "tokens",
          metrics: { input_tokens: 1000, output_tokens: 5000, output_audio_tokens: 5000, total_tokens: 6000 },
        },
      ],
      context: { billable_customer_id: "cust-oracle" },
    },
    expectedCostUsd: "0.060600000",
  },
];
