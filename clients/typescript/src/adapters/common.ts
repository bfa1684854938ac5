import type { Provider, UsageEntry } from "../contract.ts";
import type { VendorUsage } from "../types.ts";

export type Json = Record<string, unknown>;

/** Thrown when a response carries no usage to bill (for example a stream chunk before the last). */
export class UsageNotFoundError extends Error {
  override name = "UsageNotFoundError";
}

export const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export const objectAt = (value: unknown): Json => (isObject(value) ? value : {});

/** A count the vendor reported, or undefined when absent or not a number. */
export const countAt = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) ? value : undefined;

export const stringAt = (value: unknown): string | undefined =>
  typeof value === "string" && value.length > 0 ? value : undefined;

/** The vendor's usage object, or a clear error naming what was expected. */
export function usageObject(value: unknown, where: string): Json {
  if (!isObject(value)) throw new UsageNotFoundError(`no usage in this response: expected an object at ${where}`);
  return value;
}

/** Optional metrics are sent only when the vendor reported a positive count. */
function withPositive(metrics: Json, optional: Record<string, number | undefined>): Json {
  for (const [name, value] of Object.entries(optional)) if (value !== undefined && value > 0) metrics[name] = value;
  return metrics;
}

/** A `tokens` entry: the three required counts as reported, plus the breakdowns the vendor gave. */
export function tokensEntry(
  required: { input_tokens: number | undefined; output_tokens: number | undefined; total_tokens: number | undefined },
  optional: Record<string, number | undefined> = {},
): UsageEntry {
  const input = required.input_tokens ?? 0;
  const output = required.output_tokens ?? 0;
  const metrics = withPositive(
    { input_tokens: input, output_tokens: output, total_tokens: required.total_tokens ?? input + output },
    optional,
  );
  return { type: "tokens", metrics } as UsageEntry;
}

export function requestsEntry(
  requestType: string,
  count: number,
  optional: Record<string, number | undefined> = {},
): UsageEntry {
  return { type: "requests", metrics: withPositive({ count, request_type: requestType }, optional) } as UsageEntry;
}

/** The modality breakdowns of one side (`input` or `output`), under the side-specific metric names. */
export function modalityMetrics(
  side: "input" | "output",
  counts: { audio?: number; image?: number },
): Record<string, number | undefined> {
  return { [`${side}_audio_tokens`]: counts.audio, [`${side}_image_tokens`]: counts.image };
}

/** The tier names that mean the vendor's list price: sent as no `model_tier` (the worker's list price). */
const LIST_PRICE_TIERS = new Set(["standard", "default", "auto", "on_demand"]);

/**
 * The `model_tier` for the service tier a vendor's response reports, in lower case: `names` turns the
 * vendor's word into the one the worker prices (OpenAI's `fast` is its `priority`); the list price
 * (`standard`, `default`, `auto`, `on_demand`) is no tier. Any other tier is sent as reported, so a tier
 * without a published token price (a capacity commitment, a tier new to us) is stored unpriced with the
 * reason rather than billed at the list price.
 */
export function reportedTier(value: unknown, names: Record<string, string> = {}): string | undefined {
  const reported = stringAt(value)?.toLowerCase();
  if (reported === undefined) return undefined;
  const tier = names[reported] ?? reported;
  return LIST_PRICE_TIERS.has(tier) ? undefined : tier;
}

export function vendorUsage(
  provider: Provider,
  model: string | undefined,
  usage: UsageEntry[],
  raw: Json,
  id: unknown,
  tier?: string,
): VendorUsage {
  if (!model) throw new TypeError(`the ${provider} response names no model; pass it as the \`model\` option`);
  const transactionId = stringAt(id);
  return {
    provider,
    model,
    ...(tier ? { model_tier: tier } : {}),
    usage,
    provider_usage_raw: raw,
    ...(transactionId ? { transaction_id: transactionId.slice(0, 255) } : {}),
  };
}
