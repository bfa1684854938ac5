import type { UsageEntry } from "../contract.ts";
import type { VendorUsage } from "../types.ts";
import {
  countAt,
  isObject,
  type Json,
  modalityMetrics,
  objectAt,
  reportedTier,
  requestsEntry,
  stringAt,
  tokensEntry,
  usageObject,
  vendorUsage,
} from "./common.ts";

export interface GeminiOptions {
  /** The model, when the response has no `modelVersion`. */
  model?: string;
}

/**
 * Gemini `generateContent` usage, as Google counts it: `promptTokenCount` includes
 * `cachedContentTokenCount`; `thoughtsTokenCount` is outside `candidatesTokenCount` (the service adds
 * it to the output); `toolUsePromptTokenCount` (tool results fed back to the model) is outside the
 * prompt count, so it is added to the input here. A stream's usage is on its last chunk: pass that
 * chunk, or the array of chunks. A grounded answer adds one `google_grounding` (or `maps_grounding`)
 * request. A Batch API result (a line of its responses file, or one of its inlined responses:
 * `{ key?, response }`) is billed as `batch`.
 */
export function fromGemini(response: unknown, options: GeminiOptions = {}): VendorUsage {
  const outer = Array.isArray(response) ? lastWithUsage(response) : objectAt(response);
  const batch = outer.usageMetadata === undefined && isObject(outer.response);
  const body = batch ? objectAt(outer.response) : outer;
  const usage = usageObject(body.usageMetadata, "usageMetadata (a stream reports it on its last chunk)");
  const toolUse = countAt(usage.toolUsePromptTokenCount) ?? 0;
  const prompt = countAt(usage.promptTokenCount);
  const inputs = modalities([usage.promptTokensDetails, usage.toolUsePromptTokensDetails]);
  const outputs = modalities([usage.candidatesTokensDetails]);
  const entries: UsageEntry[] = [
    tokensEntry(
      {
        input_tokens: prompt === undefined ? undefined : prompt + toolUse,
        output_tokens: countAt(usage.candidatesTokenCount),
        total_tokens: countAt(usage.totalTokenCount),
      },
      {
        cached_tokens: countAt(usage.cachedContentTokenCount),
        reasoning_tokens: countAt(usage.thoughtsTokenCount),
        cached_audio_tokens: modalities([usage.cacheTokensDetails]).audio,
        ...modalityMetrics("input", inputs),
        ...modalityMetrics("output", outputs),
      },
    ),
  ];
  const grounding = groundingType(body);
  if (grounding) entries.push(requestsEntry(grounding, 1));
  const tier = batch ? "batch" : geminiTier(body, usage);
  return vendorUsage("gemini", stringAt(body.modelVersion) ?? options.model, entries, usage, body.responseId, tier);
}

/**
 * Vertex AI reports the tier in `usageMetadata.trafficType` (`ON_DEMAND`, `ON_DEMAND_PRIORITY`,
 * `ON_DEMAND_FLEX`, `PROVISIONED_THROUGHPUT`: "The type of traffic that this request was processed with",
 * https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/GenerateContentResponse#TrafficType).
 * The Gemini API reports it in the `x-gemini-service-tier` response header, which the SDK keeps in
 * `sdkHttpResponse.headers` (https://ai.google.dev/gemini-api/docs/priority-inference). Provisioned
 * Throughput is paid by commitment: sent as reported, it stays unpriced with the reason.
 */
function geminiTier(body: Json, usage: Json): string | undefined {
  const traffic = { on_demand_priority: "priority", on_demand_flex: "flex", traffic_type_unspecified: "standard" };
  return reportedTier(usage.trafficType, traffic) ?? reportedTier(headerAt(objectAt(body.sdkHttpResponse).headers));
}

/** `x-gemini-service-tier` from a plain headers object (any case) or a `Headers`. */
function headerAt(headers: unknown): unknown {
  const name = "x-gemini-service-tier";
  if (typeof headers === "object" && headers !== null && typeof (headers as { get?: unknown }).get === "function") {
    return (headers as { get: (n: string) => unknown }).get(name);
  }
  return Object.entries(objectAt(headers)).find(([key]) => key.toLowerCase() === name)?.[1];
}

function lastWithUsage(chunks: unknown[]): Json {
  for (let i = chunks.length - 1; i >= 0; i--) {
    const chunk = objectAt(chunks[i]);
    if (chunk.usageMetadata !== undefined) return chunk;
  }
  return {};
}

/** Audio and image token counts from `[{ modality, tokenCount }]` lists. */
function modalities(lists: unknown[]): { audio?: number; image?: number } {
  const sums: { audio?: number; image?: number } = {};
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    for (const item of list) {
      const { modality, tokenCount } = objectAt(item);
      const key = modality === "AUDIO" ? "audio" : modality === "IMAGE" ? "image" : undefined;
      const value = countAt(tokenCount);
      if (key && value !== undefined) sums[key] = (sums[key] ?? 0) + value;
    }
  }
  return sums;
}

/** Grounding with Google Search (or Google Maps) is billed per grounded prompt. */
function groundingType(body: Json): "google_grounding" | "maps_grounding" | undefined {
  const candidates = Array.isArray(body.candidates) ? body.candidates : [];
  const metadata = candidates.map((c) => objectAt(objectAt(c).groundingMetadata)).filter((m) => Object.keys(m).length);
  if (metadata.length === 0) return undefined;
  const chunks = metadata.flatMap((m) => (Array.isArray(m.groundingChunks) ? m.groundingChunks : []));
  if (chunks.some((chunk) => objectAt(chunk).maps !== undefined)) return "maps_grounding";
  const searched = metadata.some(
    (m) => (Array.isArray(m.webSearchQueries) && m.webSearchQueries.length > 0) || m.searchEntryPoint !== undefined,
  );
  return searched || chunks.length > 0 ? "google_grounding" : undefined;
}
