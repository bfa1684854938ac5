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
  usageObject,
  vendorUsage,
} from "./common.ts";

/** xAI's server-side tool counters, by our request types. */
const SERVER_TOOLS: Array<[string, string]> = [
  ["web_search_calls", "web_search"],
  ["x_search_calls", "x_search"],
  ["code_interpreter_calls", "code_execution"],
  ["document_search_calls", "document_search"],
  ["file_search_calls", "collections_search"],
];

/**
 * xAI usage. xAI reports `reasoning_tokens` outside the completion count (total = prompt + completion +
 * reasoning), which is the service's `xai` convention, so they are sent as they are. Some Responses API
 * answers count the reasoning inside `output_tokens` instead (total = input + output): the total tells
 * which, and then the reasoning is taken out of the output count, so that it is billed once. Live Search `num_sources_used` becomes a
 * `live_search` request with `sources_used`; otherwise server-side tool calls become requests of their
 * kind (the API takes one `requests` entry per transaction: the first kind with calls is counted).
 */
export function fromXai(response: unknown): VendorUsage {
  const body = objectAt(response);
  const usage = usageObject(body.usage, "usage");
  const input = countAt(usage.prompt_tokens) ?? countAt(usage.input_tokens);
  const output = countAt(usage.completion_tokens) ?? countAt(usage.output_tokens) ?? 0;
  const total = countAt(usage.total_tokens);
  const inputDetails = objectAt(usage.prompt_tokens_details ?? usage.input_tokens_details);
  const outputDetails = objectAt(usage.completion_tokens_details ?? usage.output_tokens_details);
  const reasoning = countAt(outputDetails.reasoning_tokens) ?? 0;
  const reasoningInside = reasoning > 0 && total !== undefined && total === (input ?? 0) + output;
  const entries: UsageEntry[] = [
    tokensEntry(
      { input_tokens: input, output_tokens: reasoningInside ? output - reasoning : output, total_tokens: total },
      {
        cached_tokens: countAt(inputDetails.cached_tokens),
        reasoning_tokens: reasoning,
        input_image_tokens: countAt(inputDetails.image_tokens),
      },
    ),
  ];
  const tools = toolRequests(usage);
  if (tools) entries.push(tools);
  // "The response always includes a service_tier field indicating whether priority was granted"
  // (`default` or `priority`, https://docs.x.ai/developers/advanced-api-usage/priority-processing).
  const vendor = vendorUsage("xai", stringAt(body.model), entries, usage, body.id, reportedTier(body.service_tier));
  const cost = usdOfTicks(usage.cost_in_usd_ticks);
  return cost === undefined ? vendor : { ...vendor, provider_cost: cost };
}

/** The most ticks the service takes as one call's cost: 9,000 USD. */
const MAX_TICKS = 90_000_000_000_000;

/**
 * `usage.cost_in_usd_ticks`, the cost xAI charged for the request (1 USD = 10^10 ticks,
 * https://docs.x.ai/developers/cost-tracking), as an exact decimal string in USD: 1234567 ticks are
 * "0.0001234567". Anything but a whole number of ticks from 0 to 9,000 USD is left out (it stays in
 * `provider_usage_raw`), so the usage is never refused for it.
 */
export function usdOfTicks(ticks: unknown): string | undefined {
  if (typeof ticks !== "number" || !Number.isSafeInteger(ticks) || ticks < 0 || ticks > MAX_TICKS) return undefined;
  const digits = String(ticks).padStart(11, "0");
  return `${digits.slice(0, -10)}.${digits.slice(-10)}`;
}

function toolRequests(usage: Json): UsageEntry | undefined {
  const sources = countAt(usage.num_sources_used) ?? 0;
  if (sources > 0) return requestsEntry("live_search", 1, { sources_used: sources });
  const details = objectAt(usage.server_side_tool_usage_details ?? usage.server_side_tool_usage);
  for (const [counter, requestType] of SERVER_TOOLS) {
    const calls = countAt(details[counter]) ?? 0;
    if (calls > 0) return requestsEntry(requestType, calls);
  }
  return undefined;
}
