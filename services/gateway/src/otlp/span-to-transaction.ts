import {
  contextAttribute,
  type OrganizationOtelSettings,
  OTEL_DEFAULT_CUSTOMER_ATTRIBUTES,
} from "@usage-ingestion/organizations";
import { type Provider, TOKEN_CONVENTIONS } from "@usage-ingestion/shared";
import type { AttributeValue, DecodedSpan } from "./decode.ts";
import {
  COUNT_ATTRIBUTES,
  type CountAttribute,
  type CountName,
  MODALITY_METRICS,
  MODEL_ATTRIBUTES,
  meaningOf,
  OPENINFERENCE_SPAN_KIND,
  OPENLLMETRY_SPAN_KIND,
  PROVIDER_ATTRIBUTES,
} from "./dialects.ts";
import { providerCostOf } from "./span-cost.ts";

/**
 * What a span is to billing: not a model call (ignored), a transaction to validate and queue, or a model
 * call that cannot become one (rejected, with the reason the exporter is told).
 */
export type SpanVerdict =
  | { kind: "ignored" }
  | { kind: "transaction"; transaction: Record<string, unknown> }
  | { kind: "rejected"; reason: string };

/** Operations of the GenAI conventions that are one call to a model. */
const MODEL_OPERATIONS = new Set(["chat", "text_completion", "generate_content", "embeddings"]);

/**
 * `gen_ai.provider.name` (or the older `gen_ai.system`) -> our provider. Older instrumentations write the
 * vendor's plain name, the Vercel AI SDK's earlier spans its provider id (`openai.chat`, `google.vertex.chat`).
 */
const PROVIDER_NAMES: Record<string, Provider> = {
  openai: "openai",
  anthropic: "anthropic",
  "gcp.gemini": "gemini",
  "gcp.vertex_ai": "gemini",
  "gcp.gen_ai": "gemini",
  gemini: "gemini",
  vertex_ai: "gemini",
  "aws.bedrock": "bedrock",
  x_ai: "xai",
  xai: "xai",
  deepseek: "deepseek",
  // OpenInference's llm.provider and llm.system values.
  google: "gemini",
  vertexai: "gemini",
  aws: "bedrock",
};
const PROVIDER_ID_PREFIXES: Array<[string, Provider]> = [
  ["openai.", "openai"],
  ["anthropic.", "anthropic"],
  ["google.", "gemini"],
  ["google-vertex.", "gemini"],
  ["amazon-bedrock.", "bedrock"],
  ["xai.", "xai"],
  ["deepseek.", "deepseek"],
];

const SERVICE_TIER = [
  "gen_ai.openai.response.service_tier",
  "openai.response.service_tier",
  "gen_ai.openai.request.service_tier",
  "openai.request.service_tier",
];

/** A span's attribute, else its resource's. */
const lookup = (span: DecodedSpan, name: string): AttributeValue | undefined =>
  span.attributes.get(name) ?? span.resource.get(name);

const firstOf = (span: DecodedSpan, names: readonly string[]) => {
  for (const name of names) {
    const value = span.attributes.get(name);
    if (value !== undefined) return value;
  }
  return undefined;
};

export function providerOf(name: AttributeValue | undefined): Provider | undefined {
  if (typeof name !== "string" || name === "") return undefined;
  const lower = name.toLowerCase();
  if (Object.hasOwn(PROVIDER_NAMES, lower)) return PROVIDER_NAMES[lower];
  return PROVIDER_ID_PREFIXES.find(([prefix]) => lower.startsWith(prefix))?.[1] ?? "custom";
}

/**
 * A model call: a span whose `gen_ai.operation.name` is a model operation (`chat`, ...); without one, an
 * OpenInference span of kind `LLM`; without either, one that names a provider and reports token usage.
 * OpenLLMetry's workflow, task, agent and tool spans, and other agent, tool, chain and workflow spans
 * (which may repeat their calls' usage as totals), are not.
 */
function isModelCall(span: DecodedSpan): boolean {
  if (span.attributes.has(OPENLLMETRY_SPAN_KIND)) return false;
  const operation = span.attributes.get("gen_ai.operation.name");
  if (operation !== undefined) return typeof operation === "string" && MODEL_OPERATIONS.has(operation);
  const kind = span.attributes.get(OPENINFERENCE_SPAN_KIND);
  if (kind !== undefined) return typeof kind === "string" && kind.toUpperCase() === "LLM";
  return (
    firstOf(span, PROVIDER_ATTRIBUTES) !== undefined &&
    COUNT_ATTRIBUTES.some(({ attribute }) => span.attributes.has(attribute))
  );
}

/**
 * One span -> the transaction it reports, converted to its vendor's own token convention (the GenAI
 * conventions count cache reads and writes inside the input and reasoning inside the output). The
 * transaction is not judged here: the caller validates it as any transaction is (`validateTransaction`).
 */
export function spanToTransaction(
  span: DecodedSpan,
  settings: OrganizationOtelSettings = {},
  sameCall?: DecodedSpan,
): SpanVerdict {
  if (!isModelCall(span)) return { kind: "ignored" };
  const provider = providerOf(firstOf(span, PROVIDER_ATTRIBUTES)) ?? "custom";
  const model = firstOf(span, MODEL_ATTRIBUTES);
  if (model === undefined) return { kind: "rejected", reason: `no model (${MODEL_ATTRIBUTES.join(", ")})` };
  const counts = countsOf(span);
  if (sameCall) fillParts(counts, countsOf(sameCall));
  if (counts.input === undefined && counts.output === undefined) {
    return { kind: "rejected", reason: `no token usage (${USAGE_NAMES})` };
  }
  const metrics = vendorMetrics(provider, counts);
  if (typeof metrics === "string") return { kind: "rejected", reason: metrics };
  const customer = customerOf(span, settings);
  const tier = firstOf(span, SERVICE_TIER);
  const responseId = span.attributes.get("gen_ai.response.id");
  return {
    kind: "transaction",
    transaction: {
      provider,
      model,
      ...(tier === undefined ? {} : { model_tier: tier }),
      usage: [{ type: "tokens", metrics }],
      context: { ...contextOf(span, settings), billable_customer_id: customer },
      transaction_id:
        typeof responseId === "string" && responseId !== "" ? responseId : `otel-${span.traceId}-${span.spanId}`,
      provider_usage_raw: rawUsage(span),
      ...providerCostOf(span),
    },
  };
}

/** The input and output attributes, named when a span has neither. */
const USAGE_NAMES = COUNT_ATTRIBUTES.filter(({ count }) => count === "input" || count === "output")
  .map(({ attribute }) => attribute)
  .join(", ");

/** A count as the span reported it: its value, the attribute it came from, and what that attribute holds. */
interface Read {
  value: AttributeValue;
  attribute: string;
  inside: boolean | undefined;
}
type Counts = Partial<Record<CountName, Read>>;

/** Each count from the first of its attributes the span has, with the meaning its scope gives it. */
function countsOf(span: DecodedSpan): Counts {
  const counts: Counts = {};
  for (const entry of COUNT_ATTRIBUTES) {
    if (counts[entry.count] !== undefined) continue;
    const value = span.attributes.get(entry.attribute);
    if (value !== undefined) counts[entry.count] = readOf(entry, value, span);
  }
  return counts;
}

/** A count of the parts (cache, reasoning, modalities): what another span of the same call may fill. */
const PARTS: readonly CountName[] = COUNT_ATTRIBUTES.map(({ count }) => count).filter(
  (count, index, all) => count !== "input" && count !== "output" && all.indexOf(count) === index,
);

/** Input and output in the conventions' sense (cache inside the input, reasoning inside the output). */
function wholes(counts: Counts): [number, number] | undefined {
  const { input, output } = counts;
  if (!input || !output || !isCount(input.value) || !isCount(output.value)) return undefined;
  return [
    input.value + (input.inside === false ? countOf(counts.cacheRead) + countOf(counts.cacheWrite) : 0),
    output.value + (output.inside === false ? countOf(counts.reasoning) : 0),
  ];
}

/**
 * The parts `counts` lacks, from `other`, the counts of another span reporting the same call (its wrapper
 * in the same export), when both report the same input and output: an instrumentation that does not
 * export cached tokens, inside one that does, is billed with them.
 */
function fillParts(counts: Counts, other: Counts) {
  const own = wholes(counts);
  const theirs = wholes(other);
  if (!own || !theirs || own[0] !== theirs[0] || own[1] !== theirs[1]) return;
  for (const part of PARTS) {
    if (counts[part] === undefined && other[part] !== undefined) counts[part] = other[part];
  }
}

const readOf = (entry: CountAttribute, value: AttributeValue, span: DecodedSpan): Read => ({
  value,
  attribute: entry.attribute,
  inside: meaningOf(entry, span.scope),
});

const isCount = (value: AttributeValue | undefined): value is number =>
  typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
const countOf = (read: Read | undefined) => (read !== undefined && isCount(read.value) ? read.value : 0);

/**
 * The tokens metrics as the vendor counts them. Each count is first put in the GenAI conventions' sense
 * (an input written without its cache gets it added, an output without its reasoning likewise), then
 * converted to the vendor's. A count that is not a whole number is passed on as it is, for validation to
 * name; a cache or reasoning count larger than the total it is part of is refused.
 */
function vendorMetrics(provider: Provider, counts: Counts): Record<string, unknown> | string {
  const read = countOf(counts.cacheRead);
  const write = countOf(counts.cacheWrite);
  const thought = countOf(counts.reasoning);
  let input = counts.input?.value;
  let output = counts.output?.value;
  if (isCount(input) && counts.input?.inside === false) input += read + write;
  if (isCount(output) && counts.output?.inside === false) output += thought;
  let vendorInput = input;
  if (isCount(input)) {
    if (input < read + write) {
      return `${counts.input?.attribute} (${input}) is less than its cache reads and writes (${read + write})`;
    }
    const outside =
      (TOKEN_CONVENTIONS.cachedInsideInput.has(provider) ? 0 : read) +
      (TOKEN_CONVENTIONS.writesInsideInput.has(provider) ? 0 : write);
    vendorInput = input - outside;
  }
  let vendorOutput = output;
  if (isCount(output) && TOKEN_CONVENTIONS.reasoningOutsideOutput.has(provider)) {
    if (output < thought)
      return `${counts.output?.attribute} (${output}) is less than its reasoning tokens (${thought})`;
    vendorOutput = output - thought;
  }
  return {
    input_tokens: vendorInput,
    output_tokens: vendorOutput,
    ...(isCount(input) && isCount(output) ? { total_tokens: input + output } : {}),
    ...optional("cache_read_input_tokens", counts.cacheRead?.value),
    ...optional("cache_creation_input_tokens", counts.cacheWrite?.value),
    ...optional("reasoning_tokens", counts.reasoning?.value),
    ...modalityMetrics(counts),
  };
}

/** The modality splits as our side-specific metrics, each when positive. */
function modalityMetrics(counts: Counts): Record<string, unknown> {
  const metrics: Record<string, unknown> = {};
  for (const [count, metric] of Object.entries(MODALITY_METRICS) as Array<[keyof typeof MODALITY_METRICS, string]>) {
    Object.assign(metrics, optional(metric, counts[count]?.value));
  }
  return metrics;
}

/** An optional count when positive; one that is no count at all, as it is (validation names it). */
const optional = (metric: string, value: AttributeValue | undefined) =>
  value === undefined || (isCount(value) && value === 0) ? {} : { [metric]: value };

/** The organization's attribute, else the first default found; absent, no customer (validation says so). */
function customerOf(span: DecodedSpan, settings: OrganizationOtelSettings): unknown {
  const names = settings.customer_attribute ? [settings.customer_attribute] : OTEL_DEFAULT_CUSTOMER_ATTRIBUTES;
  for (const name of names) {
    const value = lookup(span, name);
    if (value !== undefined) return typeof value === "string" ? value : String(value);
  }
  return undefined;
}

function contextOf(span: DecodedSpan, settings: OrganizationOtelSettings): Record<string, AttributeValue> {
  const context: Record<string, AttributeValue> = {};
  for (const entry of settings.context_attributes ?? []) {
    const { key, attribute } = contextAttribute(entry);
    const value = lookup(span, attribute);
    if (value !== undefined) context[key] = value;
  }
  return context;
}

/** Every usage and cost attribute of the dialects, as the span carried it, for audit (`provider_usage_raw`). */
const USAGE_PREFIXES = ["gen_ai.usage.", "ai.usage.", "llm.usage.", "llm.token_count.", "llm.cost."];
function rawUsage(span: DecodedSpan): Record<string, AttributeValue> {
  const raw: Record<string, AttributeValue> = {};
  for (const [name, value] of span.attributes) {
    if (USAGE_PREFIXES.some((prefix) => name.startsWith(prefix))) raw[name] = value;
  }
  return raw;
}
