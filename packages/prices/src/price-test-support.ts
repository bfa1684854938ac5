import type { Transaction } from "@usage-ingestion/shared";
import { validateTransaction } from "@usage-ingestion/shared";
import type { PricingResult } from "./build-line-items.ts";
import type { CustomPricing } from "./choose-rate-card.ts";
import { priceAt } from "./price-usage.ts";

/** Helpers for the pricing tests (price-*.test.ts). */
/**
 * Expected costs are worked out by hand from each vendor's published prices (USD per million tokens
 * unless stated), in nano-USD (1 USD = 1e9). Sources:
 * - OpenAI https://openai.com/api/pricing/ : gpt-4o 2.50 in / 1.25 cached / 10 out; o3 2 / 0.50 / 8;
 *   DALL-E 3 $0.040 standard, $0.080 hd (1024x1024); gpt-image-1 high 1536x1024 $0.25; whisper-1 $0.006/min;
 *   web search $10 per 1,000 calls; Batch and Flex -50%.
 * - Anthropic https://www.anthropic.com/pricing#api : Claude Sonnet 4.5 3 in / 3.75 cache write /
 *   0.30 cache read / 15 out; above 200K prompt tokens 6 / 7.50 / 0.60 / 22.50.
 * - Google https://ai.google.dev/gemini-api/docs/pricing : Gemini 2.5 Flash 0.30 in / 0.03 cached /
 *   2.50 out (thinking included); Veo 3 $0.75/s until 2025-09-09, $0.40/s after; grounding $35 / 1,000.
 * - xAI https://docs.x.ai/docs/models : grok-4 3 in / 0.75 cached / 15 out; Live Search $25 / 1,000 sources.
 * - DeepSeek https://api-docs.deepseek.com/quick_start/pricing : deepseek-chat 0.27 in / 0.07 cache hit / 1.10 out.
 * - AWS https://aws.amazon.com/bedrock/pricing/ : Claude Sonnet 4 on Bedrock 3 in / 15 out.
 */
export const RECEIVED = new Date("2025-11-01T12:00:00Z");

export function tx(fields: Record<string, unknown>): Transaction {
  const result = validateTransaction({ context: { billable_customer_id: "c" }, ...fields });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.transaction;
}

export const price = (transaction: Transaction, at = RECEIVED, custom: CustomPricing | null = null): PricingResult =>
  priceAt(transaction, at, custom).pricing;

export const tokens = (metrics: Record<string, number>) => ({
  type: "tokens",
  metrics: { total_tokens: 1, ...metrics },
});

export function nanos(result: PricingResult): bigint {
  if (result.status !== "priced") throw new Error(`unpriced: ${result.unpriced_reason}`);
  return result.cost_nanos;
}
