export { fromAnthropic, fromAnthropicStream } from "./adapters/anthropic.ts";
export { type BedrockOptions, fromBedrock } from "./adapters/bedrock.ts";
export { UsageNotFoundError } from "./adapters/common.ts";
export { fromDeepSeek } from "./adapters/deepseek.ts";
export { fromGemini, type GeminiOptions } from "./adapters/gemini.ts";
export { fromOpenAI, type OpenAIOptions } from "./adapters/openai.ts";
export { fromXai } from "./adapters/xai.ts";
export { type BudgetFilter, type BudgetsAnswer, BudgetsError } from "./budgets.ts";
export { type ClientOptions, createClient, MAX_BATCH_BYTES, MAX_BATCH_SIZE, type UsageClient } from "./client.ts";
export type {
  BudgetPeriod,
  BudgetScope,
  BudgetStatus,
  FieldError,
  FieldErrorCode,
  Provider,
  RequestType,
  TransactionContext,
  UsageEntry,
} from "./contract.ts";
export { QUEUEING_FAILURE_PREFIX } from "./contract.ts";
export type {
  Delivered,
  DeliveryFailure,
  FailureReason,
  FlushResult,
  TrackedTransaction,
  VendorUsage,
} from "./types.ts";
