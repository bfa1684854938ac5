/**
 * The span conventions ("dialects") the OTLP mapping reads, as data: which attribute holds which count,
 * what each count includes, and where an instrumentation departs from its own convention, the rule keyed
 * on the instrumentation scope that emitted the span. docs/opentelemetry.md shows these tables (a test
 * keeps the two alike); the mapping (span-to-transaction.ts) reads nothing that is not here.
 */

export type DialectName =
  | "OpenTelemetry GenAI"
  | "OpenTelemetry GenAI, deprecated"
  | "OpenLLMetry"
  | "OpenInference"
  | "Vercel AI SDK";

/**
 * The counts read, each in the GenAI conventions' sense once its meaning is applied: `input` includes
 * cache reads and writes, `output` includes reasoning; the rest are parts of those.
 */
export type CountName =
  | "input"
  | "output"
  | "cacheRead"
  | "cacheWrite"
  | "reasoning"
  | "inputAudio"
  | "inputImage"
  | "outputAudio"
  | "outputImage"
  | "cachedAudio"
  | "cachedImage";

export interface CountAttribute {
  attribute: string;
  count: CountName;
  dialect: DialectName;
  /**
   * For `input`: whether the cache reads and writes are inside the number (the GenAI conventions' and
   * OpenInference's definition) or outside it (Anthropic's own `input_tokens`). For `output`: whether
   * reasoning is inside it. Absent for the parts.
   */
  inside?: boolean;
}

/** Each count's attributes in the order they are looked for: the first present wins. */
export const COUNT_ATTRIBUTES: readonly CountAttribute[] = [
  { count: "input", attribute: "gen_ai.usage.input_tokens", dialect: "OpenTelemetry GenAI", inside: true },
  { count: "input", attribute: "gen_ai.usage.prompt_tokens", dialect: "OpenTelemetry GenAI, deprecated", inside: true },
  { count: "input", attribute: "llm.token_count.prompt", dialect: "OpenInference", inside: true },
  { count: "input", attribute: "ai.usage.inputTokens", dialect: "Vercel AI SDK", inside: true },
  { count: "input", attribute: "ai.usage.promptTokens", dialect: "Vercel AI SDK", inside: true },
  { count: "output", attribute: "gen_ai.usage.output_tokens", dialect: "OpenTelemetry GenAI", inside: true },
  {
    count: "output",
    attribute: "gen_ai.usage.completion_tokens",
    dialect: "OpenTelemetry GenAI, deprecated",
    inside: true,
  },
  { count: "output", attribute: "llm.token_count.completion", dialect: "OpenInference", inside: true },
  { count: "output", attribute: "ai.usage.outputTokens", dialect: "Vercel AI SDK", inside: true },
  { count: "output", attribute: "ai.usage.completionTokens", dialect: "Vercel AI SDK", inside: true },
  { count: "cacheRead", attribute: "gen_ai.usage.cache_read.input_tokens", dialect: "OpenTelemetry GenAI" },
  { count: "cacheRead", attribute: "gen_ai.usage.cache_read_input_tokens", dialect: "OpenLLMetry" },
  { count: "cacheRead", attribute: "llm.token_count.prompt_details.cache_read", dialect: "OpenInference" },
  { count: "cacheRead", attribute: "ai.usage.inputTokenDetails.cacheReadTokens", dialect: "Vercel AI SDK" },
  { count: "cacheRead", attribute: "ai.usage.cachedInputTokens", dialect: "Vercel AI SDK" },
  { count: "cacheWrite", attribute: "gen_ai.usage.cache_write.input_tokens", dialect: "OpenTelemetry GenAI" },
  {
    count: "cacheWrite",
    attribute: "gen_ai.usage.cache_creation.input_tokens",
    dialect: "OpenTelemetry GenAI, deprecated",
  },
  { count: "cacheWrite", attribute: "gen_ai.usage.cache_creation_input_tokens", dialect: "OpenLLMetry" },
  { count: "cacheWrite", attribute: "llm.token_count.prompt_details.cache_write", dialect: "OpenInference" },
  { count: "cacheWrite", attribute: "ai.usage.inputTokenDetails.cacheWriteTokens", dialect: "Vercel AI SDK" },
  { count: "reasoning", attribute: "gen_ai.usage.reasoning.output_tokens", dialect: "OpenTelemetry GenAI" },
  { count: "reasoning", attribute: "gen_ai.usage.reasoning_tokens", dialect: "OpenLLMetry" },
  { count: "reasoning", attribute: "llm.token_count.completion_details.reasoning", dialect: "OpenInference" },
  { count: "reasoning", attribute: "ai.usage.outputTokenDetails.reasoningTokens", dialect: "Vercel AI SDK" },
  { count: "reasoning", attribute: "ai.usage.reasoningTokens", dialect: "Vercel AI SDK" },
  { count: "inputAudio", attribute: "gen_ai.usage.audio.input_tokens", dialect: "OpenTelemetry GenAI" },
  { count: "inputAudio", attribute: "llm.token_count.prompt_details.audio", dialect: "OpenInference" },
  { count: "inputImage", attribute: "gen_ai.usage.image.input_tokens", dialect: "OpenTelemetry GenAI" },
  { count: "outputAudio", attribute: "gen_ai.usage.audio.output_tokens", dialect: "OpenTelemetry GenAI" },
  { count: "outputAudio", attribute: "llm.token_count.completion_details.audio", dialect: "OpenInference" },
  { count: "outputImage", attribute: "gen_ai.usage.image.output_tokens", dialect: "OpenTelemetry GenAI" },
  { count: "cachedAudio", attribute: "gen_ai.usage.audio.cache_read.input_tokens", dialect: "OpenTelemetry GenAI" },
  { count: "cachedImage", attribute: "gen_ai.usage.image.cache_read.input_tokens", dialect: "OpenTelemetry GenAI" },
];

/**
 * Our metric for each modality count: a part of its side (the cached ones, of the cache reads), priced at
 * the modality's own rate. Text splits are the rest of their side; video input has no rate of its own.
 */
export const MODALITY_METRICS = {
  inputAudio: "input_audio_tokens",
  inputImage: "input_image_tokens",
  outputAudio: "output_audio_tokens",
  outputImage: "output_image_tokens",
  cachedAudio: "cached_audio_tokens",
  cachedImage: "cached_image_tokens",
} as const satisfies Partial<Record<CountName, string>>;

/** Totals some dialects add: never priced (input + output is), kept in `provider_usage_raw` for audit. */
export const TOTAL_ATTRIBUTES: readonly string[] = [
  "gen_ai.usage.total_tokens",
  "llm.usage.total_tokens",
  "llm.token_count.total",
  "ai.usage.totalTokens",
];

/**
 * The cost an instrumentation put on the span (decision 0031), first found, read as the call's
 * `provider_cost`: an amount with its currency attribute (only `USD` is kept; another currency is never
 * converted, and the span then has no provider cost), or an amount its convention defines in USD.
 */
export interface CostAttribute {
  attribute: string;
  dialect: DialectName;
  /** The attribute that names the amount's currency (ISO 4217); absent, the amount is USD by its convention. */
  currencyAttribute?: string;
}
export const COST_ATTRIBUTES: readonly CostAttribute[] = [
  {
    attribute: "gen_ai.usage.cost.amount",
    dialect: "OpenTelemetry GenAI",
    currencyAttribute: "gen_ai.usage.cost.currency",
  },
  { attribute: "llm.cost.total", dialect: "OpenInference" },
];

/** The provider's name, first found: GenAI conventions, their older name, OpenInference's two. */
export const PROVIDER_ATTRIBUTES: readonly string[] = [
  "gen_ai.provider.name",
  "gen_ai.system",
  "llm.provider",
  "llm.system",
];

/** The model, first found: the response's before the request's, GenAI conventions before OpenInference. */
export const MODEL_ATTRIBUTES: readonly string[] = [
  "gen_ai.response.model",
  "gen_ai.request.model",
  "llm.response.model_name",
  "llm.model_name",
  "llm.request.model_name",
];

/** OpenInference's span kind: only `LLM` spans are model calls (CHAIN, AGENT, TOOL, EMBEDDING... are not). */
export const OPENINFERENCE_SPAN_KIND = "openinference.span.kind";

/** OpenLLMetry's workflow, task, agent and tool spans carry this: never model calls (they repeat their calls' usage). */
export const OPENLLMETRY_SPAN_KIND = "traceloop.span.kind";

/** Inclusive bounds on an instrumentation's version; a bound absent is open. */
export interface VersionRange {
  from?: string;
  through?: string;
}

/**
 * Where an instrumentation writes a count other than as its own convention defines it: spans from the
 * scope `scope` whose version is in `versions` have `attributes` meaning `inside` instead.
 */
export interface ScopeRule {
  scope: string;
  versions: VersionRange;
  attributes: readonly string[];
  inside: boolean;
  /** The source that shows it: file, version and what it writes. */
  source: string;
}

export const SCOPE_RULES: readonly ScopeRule[] = [
  {
    // Up to 0.22.6 as gen_ai.usage.prompt_tokens without cache counts; from 0.23.0 as
    // gen_ai.usage.input_tokens beside its cache counts (gen_ai.usage.cache_read.input_tokens... in 0.27.0).
    // The change that adds the cache in (commit 3867c36, June 2026) came after the 0.27.0 release.
    scope: "@traceloop/instrumentation-anthropic",
    versions: { through: "0.27.0" },
    attributes: ["gen_ai.usage.input_tokens", "gen_ai.usage.prompt_tokens"],
    inside: false,
    source:
      "traceloop/openllmetry-js packages/instrumentation-anthropic/src/instrumentation.ts, _endSpan, v0.23.0-v0.27.0: input_tokens set to Anthropic's usage.input_tokens",
  },
  {
    scope: "@traceloop/instrumentation-bedrock",
    versions: { through: "0.27.0" },
    attributes: ["gen_ai.usage.input_tokens"],
    inside: false,
    source:
      "traceloop/openllmetry-js packages/instrumentation-bedrock/src/instrumentation.ts v0.27.0: Anthropic models' usage.input_tokens as it is",
  },
  {
    scope: "@arizeai/openinference-instrumentation-anthropic",
    versions: { through: "0.1.22" },
    attributes: ["llm.token_count.prompt"],
    inside: false,
    source:
      "@arizeai/openinference-instrumentation-anthropic 0.1.22 dist/src/instrumentation.js, getAnthropicUsageAttributes: prompt = usage.input_tokens, no cache counts (0.2.8 adds the cache in, with its details)",
  },
];

/** Numeric parts of a version ("0.27.0", "1.2.0-beta.1" -> [1, 2, 0]); undefined when it has none. */
function versionParts(version: string): number[] | undefined {
  const match = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(version.trim());
  return match ? [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)] : undefined;
}

function compare(a: number[], b: number[]): number {
  for (let i = 0; i < 3; i++) {
    const diff = (a[i] ?? 0) - (b[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}

/** Whether `version` is in `range`; a version that cannot be read is in no bounded range. */
export function inRange(version: string, range: VersionRange): boolean {
  if (range.from === undefined && range.through === undefined) return true;
  const parts = versionParts(version);
  if (!parts) return false;
  const from = range.from === undefined ? undefined : versionParts(range.from);
  const through = range.through === undefined ? undefined : versionParts(range.through);
  return (!from || compare(parts, from) >= 0) && (!through || compare(parts, through) <= 0);
}

/** What `attribute` means on a span from `scope`: its scope's rule, else its convention's. */
export function meaningOf(entry: CountAttribute, scope: { name: string; version: string }): boolean | undefined {
  const rule = SCOPE_RULES.find(
    (candidate) =>
      candidate.scope === scope.name &&
      candidate.attributes.includes(entry.attribute) &&
      inRange(scope.version, candidate.versions),
  );
  return rule ? rule.inside : entry.inside;
}
