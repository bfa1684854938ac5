import type { VendorUsage } from "../types.ts";
import { countAt, objectAt, stringAt, tokensEntry, usageObject, vendorUsage } from "./common.ts";

/**
 * DeepSeek chat completion usage (or the last stream chunk's): `prompt_tokens` is cache hits plus
 * misses, so the hits go to `cached_tokens`; reasoning tokens are inside `completion_tokens`.
 */
export function fromDeepSeek(response: unknown): VendorUsage {
  const body = objectAt(response);
  const usage = usageObject(body.usage, "usage");
  const hits = countAt(usage.prompt_cache_hit_tokens) ?? countAt(objectAt(usage.prompt_tokens_details).cached_tokens);
  return vendorUsage(
    "deepseek",
    stringAt(body.model),
    [
      tokensEntry(
        {
          input_tokens: countAt(usage.prompt_tokens),
          output_tokens: countAt(usage.completion_tokens),
          total_tokens: countAt(usage.total_tokens),
        },
        { cached_tokens: hits, reasoning_tokens: countAt(objectAt(usage.completion_tokens_details).reasoning_tokens) },
      ),
    ],
    usage,
    body.id,
  );
}
