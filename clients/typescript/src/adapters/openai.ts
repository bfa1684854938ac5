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
  UsageNotFoundError,
  usageObject,
  vendorUsage,
} from "./common.ts";
import { fromOpenAIAudio, fromOpenAIImages, fromOpenAIRealtime } from "./openai-media.ts";

export interface OpenAIOptions {
  /** The model, for responses that do not name it (images, audio transcription and speech). */
  model?: string;
}

/**
 * OpenAI's usage, as OpenAI counts it: `input_tokens` include the cached ones and the cache writes
 * (`cache_write_tokens`, sent as `cache_creation_input_tokens`), reasoning tokens are part of `output_tokens`. Accepts a Chat Completions response or its last stream chunk (the one with
 * `usage`), a Responses API response (or its `response.completed` event), a Realtime `response.done`
 * event, an image generation response, and audio transcription and speech usage.
 */
export function fromOpenAI(response: unknown, options: OpenAIOptions = {}): VendorUsage {
  const body = objectAt(response);
  if (body.custom_id !== undefined && "response" in body) return fromBatchOutputLine(body, options);
  const type = stringAt(body.type);
  if (type === "response.done") return fromOpenAIRealtime(objectAt(body.response), options.model);
  if (type === "response.completed" || type === "response.incomplete") return fromResponses(objectAt(body.response));
  if (
    type === "speech.audio.done" ||
    type === "transcript.text.done" ||
    typeof objectAt(body.usage).type === "string"
  ) {
    return fromOpenAIAudio(body, options.model);
  }
  if (body.object === "response") return fromResponses(body);
  if (Array.isArray(body.data) && !body.object) return fromOpenAIImages(body, options.model);
  return fromChatCompletion(body, options.model);
}

/**
 * The tier the response says served it (`service_tier`, "the processing type used for serving the request",
 * https://platform.openai.com/docs/api-reference/chat/object). "Priority processing was renamed Fast mode
 * on July 30, 2026. [...] You can use either service_tier: "priority" or service_tier: "fast""
 * (https://developers.openai.com/api/docs/guides/fast-mode): one product, priced as `priority`.
 */
const openAITier = (body: Json) => reportedTier(body.service_tier, { fast: "priority" });

/**
 * One line of a Batch API output file, `{ id, custom_id, response: { status_code, request_id, body },
 * error }` (https://platform.openai.com/docs/guides/batch): the body is the endpoint's own response, billed
 * at Batch API rates whatever its `service_tier` says.
 */
function fromBatchOutputLine(line: Json, options: OpenAIOptions): VendorUsage {
  const body = objectAt(line.response).body;
  if (!isObject(body)) {
    throw new UsageNotFoundError(
      `no usage in this batch output line: it has no response body (error: ${JSON.stringify(line.error ?? null).slice(0, 500)})`,
    );
  }
  return { ...fromOpenAI(body, options), model_tier: "batch" };
}

/** Chat Completions (`chat.completion`, or the `chat.completion.chunk` that carries usage). */
export function fromChatCompletion(body: Json, model?: string): VendorUsage {
  const usage = usageObject(body.usage, "usage (a stream chunk carries it only with include_usage, last)");
  const prompt = objectAt(usage.prompt_tokens_details);
  const completion = objectAt(usage.completion_tokens_details);
  return vendorUsage(
    "openai",
    stringAt(body.model) ?? model,
    [
      tokensEntry(
        {
          input_tokens: countAt(usage.prompt_tokens),
          output_tokens: countAt(usage.completion_tokens),
          total_tokens: countAt(usage.total_tokens),
        },
        {
          cached_tokens: countAt(prompt.cached_tokens),
          cache_creation_input_tokens: countAt(prompt.cache_write_tokens),
          reasoning_tokens: countAt(completion.reasoning_tokens),
          ...modalityMetrics("input", { audio: countAt(prompt.audio_tokens), image: countAt(prompt.image_tokens) }),
          ...modalityMetrics("output", { audio: countAt(completion.audio_tokens) }),
        },
      ),
    ],
    usage,
    body.id,
    openAITier(body),
  );
}

/** The tool calls of a Responses API output that are billed per call, by our request types. */
const RESPONSES_TOOL_CALLS: Record<string, string> = {
  web_search_call: "web_search",
  file_search_call: "file_search",
  code_interpreter_call: "code_execution",
};

/** Responses API (`object: "response"`). */
export function fromResponses(body: Json): VendorUsage {
  const usage = usageObject(body.usage, "usage");
  const input = objectAt(usage.input_tokens_details);
  const output = objectAt(usage.output_tokens_details);
  const entries = [
    tokensEntry(
      {
        input_tokens: countAt(usage.input_tokens),
        output_tokens: countAt(usage.output_tokens),
        total_tokens: countAt(usage.total_tokens),
      },
      {
        cached_tokens: countAt(input.cached_tokens),
        cache_creation_input_tokens: countAt(input.cache_write_tokens),
        reasoning_tokens: countAt(output.reasoning_tokens),
      },
    ),
  ];
  // The API takes one `requests` entry per transaction: the first billed tool kind found is counted.
  const calls = Array.isArray(body.output) ? body.output.map((item) => objectAt(item).type) : [];
  const kind = Object.keys(RESPONSES_TOOL_CALLS).find((name) => calls.includes(name));
  if (kind) {
    entries.push(requestsEntry(RESPONSES_TOOL_CALLS[kind] as string, calls.filter((c) => c === kind).length));
  }
  return vendorUsage("openai", stringAt(body.model), entries, usage, body.id, openAITier(body));
}
