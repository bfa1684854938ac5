import type { UsageEntry } from "../contract.ts";
import type { VendorUsage } from "../types.ts";
import {
  countAt,
  type Json,
  objectAt,
  reportedTier,
  requestsEntry,
  stringAt,
  tokensEntry,
  UsageNotFoundError,
  usageObject,
  vendorUsage,
} from "./common.ts";

/**
 * Anthropic Messages usage, as Anthropic counts it: `input_tokens` exclude cache reads and writes (the
 * prompt is their sum); `cache_creation.ephemeral_1h_input_tokens` is the part of the writes made with
 * the one-hour TTL; thinking is inside `output_tokens` (`output_tokens_details.thinking_tokens`, where
 * present, is sent as its `reasoning_tokens` breakdown); `server_tool_use.web_search_requests` are billed
 * per search. `total_tokens` (never priced) is the sum of every count. Also takes one line of a Message
 * Batches result file (`{ custom_id, result: { type: "succeeded", message } }`), billed as `batch`.
 */
export function fromAnthropic(message: unknown): VendorUsage {
  const body = objectAt(message);
  if (body.custom_id !== undefined && body.result !== undefined) return fromBatchResult(objectAt(body.result));
  const usage = usageObject(body.usage, "usage");
  return vendorUsage("anthropic", stringAt(body.model), anthropicEntries(usage), usage, body.id, anthropicTier(usage));
}

/**
 * The tier the usage reports: fast mode first (the usage object's `speed` field says which speed was
 * used, `fast` or `standard`: https://platform.claude.com/docs/en/build-with-claude/fast-mode), then
 * `service_tier` (`standard`, `priority` or `batch`, https://platform.claude.com/docs/en/api/service-tiers).
 * Priority Tier is sold by commitment: it is sent as reported, and the worker leaves it unpriced with the
 * reason.
 */
const anthropicTier = (usage: Json) => reportedTier(usage.speed) ?? reportedTier(usage.service_tier);

/**
 * A Message Batches result line: only a `succeeded` result carries a message, and it is billed at the
 * batch rates ("50% of standard API prices", https://platform.claude.com/docs/en/build-with-claude/batch-processing).
 * An `errored`, `canceled` or `expired` result carries no message, so no usage.
 */
function fromBatchResult(result: Json): VendorUsage {
  if (result.type !== "succeeded") {
    throw new UsageNotFoundError(
      `no usage in this batch result: its type is ${JSON.stringify(result.type ?? null)}, not "succeeded"`,
    );
  }
  return { ...fromAnthropic(result.message), model_tier: "batch" };
}

export function anthropicEntries(usage: Json): UsageEntry[] {
  const input = countAt(usage.input_tokens) ?? 0;
  const output = countAt(usage.output_tokens) ?? 0;
  const cacheRead = countAt(usage.cache_read_input_tokens) ?? 0;
  const cacheWrite = countAt(usage.cache_creation_input_tokens) ?? 0;
  const entries = [
    tokensEntry(
      { input_tokens: input, output_tokens: output, total_tokens: input + cacheRead + cacheWrite + output },
      {
        cache_read_input_tokens: cacheRead,
        cache_creation_input_tokens: cacheWrite,
        cache_creation_1h_input_tokens: countAt(objectAt(usage.cache_creation).ephemeral_1h_input_tokens),
        // A breakdown of output_tokens, where the API reports it.
        reasoning_tokens: countAt(objectAt(usage.output_tokens_details).thinking_tokens),
      },
    ),
  ];
  const searches = countAt(objectAt(usage.server_tool_use).web_search_requests) ?? 0;
  if (searches > 0) entries.push(requestsEntry("web_search", searches));
  return entries;
}

/**
 * A streamed message's usage: `message_start` carries the input side (and a first output count),
 * each `message_delta` the cumulative counts so far. Pass every event of the stream, or just those two
 * kinds; the last delta wins over the start, field by field.
 */
export function fromAnthropicStream(events: Iterable<unknown>): VendorUsage {
  let message: Json | undefined;
  let usage: Json = {};
  for (const event of events) {
    const body = objectAt(event);
    if (body.type === "message_start") {
      message = objectAt(body.message);
      usage = { ...objectAt(message.usage) };
    } else if (body.type === "message_delta") {
      for (const [name, value] of Object.entries(objectAt(body.usage))) if (value !== null) usage[name] = value;
    }
  }
  if (!message) throw new TypeError("no message_start event among the stream events");
  return fromAnthropic({ ...message, usage });
}
