/**
 * The service's contract as the client meets it, restated here rather than imported from the workspace
 * package that defines it: that package is not published (the declarations could not name it), and any
 * value taken from it would bring its validation schemas, and their library, into the bundle.
 * test/contract.test.ts fails the type-check the day these and the service's own definitions differ.
 */

export type Provider = "openai" | "gemini" | "bedrock" | "anthropic" | "xai" | "deepseek" | "custom";

/** The kinds of billed request a `requests` entry may name. */
export type RequestType =
  | "web_search"
  | "code_execution"
  | "file_search"
  | "x_search"
  | "live_search"
  | "google_grounding"
  | "maps_grounding"
  | "document_search"
  | "collections_search";

/** Token counts; every count an integer, the three required ones at least 1. Unknown keys are kept. */
export type TokensMetrics = {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  cached_tokens?: number | undefined;
  cache_read_input_tokens?: number | undefined;
  cache_creation_input_tokens?: number | undefined;
  reasoning_tokens?: number | undefined;
  thinking_tokens?: number | undefined;
  prompt_tokens?: number | undefined;
  completion_tokens?: number | undefined;
  prompt_text_tokens?: number | undefined;
  text_tokens?: number | undefined;
  audio_tokens?: number | undefined;
  image_tokens?: number | undefined;
  input_audio_tokens?: number | undefined;
  output_audio_tokens?: number | undefined;
  input_image_tokens?: number | undefined;
  output_image_tokens?: number | undefined;
  cached_audio_tokens?: number | undefined;
  cached_image_tokens?: number | undefined;
  cache_creation_1h_input_tokens?: number | undefined;
} & { [key: string]: unknown };

export type ImagesMetrics = {
  generated: number;
  size_px?: number | undefined;
  quality?: "low" | "medium" | "high" | "standard" | "hd" | undefined;
  width_px?: number | undefined;
  height_px?: number | undefined;
} & { [key: string]: unknown };

/** At least one of the three is required. */
export type AudioSecondsMetrics = {
  input_seconds?: number | undefined;
  output_seconds?: number | undefined;
  total_seconds?: number | undefined;
} & { [key: string]: unknown };

export type VideoSecondsMetrics = {
  processed_seconds: number;
} & { [key: string]: unknown };

export type RequestsMetrics = {
  count: number;
  request_type?: RequestType | undefined;
  sources_used?: number | undefined;
} & { [key: string]: unknown };

export type CustomMetrics = {
  units: number;
} & { [key: string]: unknown };

/** One entry of a transaction's `usage`; each `type` at most once per transaction. */
export type UsageEntry =
  | { type: "tokens"; metrics: TokensMetrics }
  | { type: "images"; metrics: ImagesMetrics }
  | { type: "audio_seconds"; metrics: AudioSecondsMetrics }
  | { type: "video_seconds"; metrics: VideoSecondsMetrics }
  | { type: "requests"; metrics: RequestsMetrics }
  | { type: "custom"; metrics: CustomMetrics };

/** Who the usage is billed to, plus any other keys of the caller's (kept as given). */
export type TransactionContext = {
  billable_customer_id: string;
} & { [key: string]: unknown };

/** A transaction as `POST /usage/transactions` accepts it. */
export type Transaction = {
  provider: Provider;
  model: string;
  model_tier?: string | undefined;
  /** At least one entry. */
  usage: UsageEntry[];
  context: TransactionContext;
  provider_usage_raw?: Record<string, unknown> | undefined;
  /** The cost the vendor reported for the call, USD: a decimal string (exact) or a number. */
  provider_cost?: string | number | undefined;
  transaction_id?: string | undefined;
};

export type FieldErrorCode =
  | "required"
  | "invalid_type"
  | "invalid_value"
  | "too_small"
  | "too_large"
  | "invalid_format";

/** One field the service refused, e.g. `{ field: "transactions.0.model", code: "required", ... }`. */
export interface FieldError {
  field: string;
  code: FieldErrorCode;
  message: string;
}

/** What became of one transaction of a bulk request. */
export interface TransactionResult {
  transaction_index: number;
  message_id: string | null;
  error?: string;
}

/** The `error` of the service's error envelope. */
export interface ErrorObject {
  code:
    | "validation_error"
    | "invalid_json"
    | "unauthorized"
    | "internal_error"
    | "partial_failure"
    | "rate_limited"
    | "report_too_large"
    | "forbidden"
    | "not_found"
    | "conflict";
  message: string;
  details?: FieldError[];
}

/**
 * The start of a 207/500 entry's error when the transaction was valid but not queued: only those
 * entries are sent again; a validation failure would fail the same way every time.
 */
export const QUEUEING_FAILURE_PREFIX = "queueing failed";

/** What a budget counts: absent fields are open (the whole organization when all are). */
export interface BudgetScope {
  customer?: string | undefined;
  provider?: Provider | undefined;
  model?: string | undefined;
  dimension?: { name: string; value: string } | undefined;
}

/** `day`, `week`, `month` (calendar, in the budget's time zone) or a rolling window of N days, `30d`. */
export type BudgetPeriod = "day" | "week" | "month" | `${number}d`;

/** One budget of `GET /usage/budgets`, as of `as_of`; money as exact decimal strings. */
export interface BudgetStatus {
  id: string;
  name: string | null;
  scope: BudgetScope;
  amount_usd: string;
  period: BudgetPeriod;
  time_zone: string;
  thresholds: number[];
  current_period: { start: string; end: string };
  spent_usd: string;
  remaining_usd: string;
  percent: string;
  thresholds_crossed: number[];
  forecast_usd: string | null;
  as_of: string;
}
