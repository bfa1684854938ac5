import * as v from "valibot";
import { checkWithCode } from "../field-errors.ts";
import { integerAtLeast, jsonObject, numberAtLeast, oneOf } from "./field-rules.ts";

const optionalCount = v.optional(integerAtLeast(0));

export const TokensMetricsSchema = v.looseObject(
  {
    input_tokens: integerAtLeast(1),
    output_tokens: integerAtLeast(1),
    total_tokens: integerAtLeast(1),
    cached_tokens: optionalCount,
    cache_read_input_tokens: optionalCount,
    cache_creation_input_tokens: optionalCount,
    reasoning_tokens: optionalCount,
    thinking_tokens: optionalCount,
    prompt_tokens: optionalCount,
    completion_tokens: optionalCount,
    prompt_text_tokens: optionalCount,
    text_tokens: optionalCount,
    audio_tokens: optionalCount,
    image_tokens: optionalCount,
    // Side-specific breakdowns (they win over audio_tokens/image_tokens), the cached part of audio and image
    // input, and the one-hour part of cache_creation_input_tokens: see docs/pricing.md, "Modality rule".
    input_audio_tokens: optionalCount,
    output_audio_tokens: optionalCount,
    input_image_tokens: optionalCount,
    output_image_tokens: optionalCount,
    cached_audio_tokens: optionalCount,
    cached_image_tokens: optionalCount,
    cache_creation_1h_input_tokens: optionalCount,
  },
  "must be a JSON object",
);

export const IMAGE_QUALITIES = ["low", "medium", "high", "standard", "hd"] as const;

export const ImagesMetricsSchema = v.looseObject(
  {
    generated: integerAtLeast(0),
    size_px: optionalCount,
    quality: v.optional(oneOf(IMAGE_QUALITIES)),
    width_px: v.optional(integerAtLeast(1)),
    height_px: v.optional(integerAtLeast(1)),
  },
  "must be a JSON object",
);

const AUDIO_METRICS = ["input_seconds", "output_seconds", "total_seconds"] as const;

export const AudioSecondsMetricsSchema = v.pipe(
  v.looseObject(
    {
      input_seconds: v.optional(numberAtLeast(0)),
      output_seconds: v.optional(numberAtLeast(0)),
      total_seconds: v.optional(numberAtLeast(0)),
    },
    "must be a JSON object",
  ),
  checkWithCode(
    "required",
    (metrics: { [name in (typeof AUDIO_METRICS)[number]]?: number } & Record<string, unknown>) =>
      AUDIO_METRICS.some((name) => metrics[name] !== undefined),
    `must include at least one of ${AUDIO_METRICS.join(", ")}`,
  ),
);

export const VideoSecondsMetricsSchema = v.looseObject(
  { processed_seconds: numberAtLeast(0) },
  "must be a JSON object",
);

export const REQUEST_TYPES = [
  "web_search",
  "code_execution",
  "file_search",
  "x_search",
  "live_search",
  "google_grounding",
  "maps_grounding",
  "document_search",
  "collections_search",
] as const;

export const RequestsMetricsSchema = v.looseObject(
  {
    count: integerAtLeast(0),
    request_type: v.optional(oneOf(REQUEST_TYPES)),
    sources_used: optionalCount,
  },
  "must be a JSON object",
);

export const CustomMetricsSchema = v.looseObject({ units: numberAtLeast(0) }, "must be a JSON object");

function entry<const TType extends string, TMetrics extends v.GenericSchema<Record<string, unknown>>>(
  type: TType,
  metrics: TMetrics,
) {
  return v.object({ type: v.literal(type), metrics: jsonObject(metrics) }, "must be a JSON object");
}

export const USAGE_TYPES = ["tokens", "images", "audio_seconds", "video_seconds", "requests", "custom"] as const;
export type UsageType = (typeof USAGE_TYPES)[number];

export const UsageEntrySchema = v.variant(
  "type",
  [
    entry("tokens", TokensMetricsSchema),
    entry("images", ImagesMetricsSchema),
    entry("audio_seconds", AudioSecondsMetricsSchema),
    entry("video_seconds", VideoSecondsMetricsSchema),
    entry("requests", RequestsMetricsSchema),
    entry("custom", CustomMetricsSchema),
  ],
  // The discriminator issue carries a path (`type`); an entry that is no object at all carries none.
  (issue) =>
    issue.path ? `must be one of: ${USAGE_TYPES.join(", ")}` : 'must be a JSON object with a "type" and "metrics"',
);

export type UsageEntryInput = v.InferInput<typeof UsageEntrySchema>;
export type UsageEntry = v.InferOutput<typeof UsageEntrySchema>;
export type TokensMetrics = v.InferOutput<typeof TokensMetricsSchema>;
export type ImagesMetrics = v.InferOutput<typeof ImagesMetricsSchema>;
export type AudioSecondsMetrics = v.InferOutput<typeof AudioSecondsMetricsSchema>;
export type VideoSecondsMetrics = v.InferOutput<typeof VideoSecondsMetricsSchema>;
export type RequestsMetrics = v.InferOutput<typeof RequestsMetricsSchema>;
export type CustomMetrics = v.InferOutput<typeof CustomMetricsSchema>;
