import type { VendorUsage } from "../types.ts";
import {
  countAt,
  type Json,
  objectAt,
  reportedTier,
  stringAt,
  tokensEntry,
  usageObject,
  vendorUsage,
} from "./common.ts";

export interface BedrockOptions {
  /** The `modelId` the request was sent with; Converse responses do not repeat it. */
  modelId: string;
}

/**
 * Bedrock Converse usage (`usage` of a Converse response, or the `metadata` event of a ConverseStream,
 * with or without its `metadata` wrapper). As with Anthropic, `inputTokens` exclude
 * `cacheReadInputTokens` and `cacheWriteInputTokens`. The transaction id is the AWS request id when the
 * SDK's `$metadata` (or boto3's `ResponseMetadata`) is present. The tier is the response's own.
 */
export function fromBedrock(response: unknown, options: BedrockOptions): VendorUsage {
  const outer = objectAt(response);
  const body = outer.usage === undefined && outer.metadata !== undefined ? objectAt(outer.metadata) : outer;
  const usage = usageObject(body.usage, "usage (or metadata.usage of a ConverseStream event)");
  const requestId =
    stringAt(objectAt(outer.$metadata).requestId) ?? stringAt(objectAt(outer.ResponseMetadata).RequestId);
  return vendorUsage(
    "bedrock",
    options.modelId,
    [
      tokensEntry(
        {
          input_tokens: countAt(usage.inputTokens),
          output_tokens: countAt(usage.outputTokens),
          total_tokens: countAt(usage.totalTokens),
        },
        {
          cache_read_input_tokens: countAt(usage.cacheReadInputTokens),
          cache_creation_input_tokens: countAt(usage.cacheWriteInputTokens),
        },
      ),
    ],
    usage,
    requestId,
    bedrockTier(body),
  );
}

/**
 * `serviceTier.type` ("the processing tier type used for serving the request": `priority`, `default`,
 * `flex` or `reserved`, https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ServiceTier.html),
 * else `performanceConfig.latency` (`standard` or `optimized`,
 * https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_PerformanceConfiguration.html), on a
 * Converse response and on a ConverseStream metadata event alike. The Reserved tier is paid by commitment:
 * sent as reported, it stays unpriced with the reason.
 */
function bedrockTier(body: Json): string | undefined {
  return (
    reportedTier(objectAt(body.serviceTier).type) ??
    reportedTier(objectAt(body.performanceConfig).latency, { optimized: "latency_optimized" })
  );
}
