/**
 * The cost a vendor reports with a call (docs/decisions/0031): kept beside our own, never in its place.
 * Held exactly as integer pico-USD (1e-12 USD): fine enough for xAI's tick (1e-10 USD, the finest unit a
 * vendor reports) and for an amount an OpenTelemetry span rounds to twelve places.
 */

/** The largest provider cost of one call, in USD: its pico-USD stay a safe integer (2^53 is ~9,007 USD). */
export const MAX_PROVIDER_COST_USD = 9000;
/** Decimal places a provider cost may have: whole pico-USD. */
export const PROVIDER_COST_PLACES = 12;
/** Text longer than this is no amount we keep (9000 with twelve places is 17 characters). */
const MAX_PROVIDER_COST_TEXT = 40;

export const PICOS_PER_USD = 1_000_000_000_000n;
/** xAI's `cost_in_usd_ticks`: 1 tick = 1e-10 USD = 100 pico-USD. */
export const PICOS_PER_XAI_TICK = 100n;
const MAX_PICOS = BigInt(MAX_PROVIDER_COST_USD) * PICOS_PER_USD;

/** Why a value is not a provider cost, one reason per field-error code. */
export type ProviderCostProblem = "type" | "format" | "negative" | "precision" | "large";

const PLAIN_DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;
const NUMBER_TEXT = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/;

/** Whole and fractional digits, the fraction's trailing zeros dropped, with the sign: exact, no float. */
function digitsOf(text: string, pattern: RegExp): { negative: boolean; whole: string; fraction: string } | null {
  const match = pattern.exec(text);
  if (!match) return null;
  const [, sign = "", wholeText = "0", fractionText = "", exponentText = "0"] = match;
  let whole = wholeText;
  let fraction = fractionText;
  const exponent = Number(exponentText);
  // A JSON number's shortest text may have an exponent (1e-7): move the point, exactly.
  if (exponent < 0) {
    const padded = whole.padStart(-exponent + 1, "0");
    fraction = padded.slice(padded.length + exponent) + fraction;
    whole = padded.slice(0, padded.length + exponent);
  } else if (exponent > 0) {
    const padded = fraction.padEnd(exponent, "0");
    whole += padded.slice(0, exponent);
    fraction = padded.slice(exponent);
  }
  return { negative: sign === "-", whole, fraction: fraction.replace(/0+$/, "") };
}

/**
 * A provider cost as a client may send it: a decimal string in USD ("0.0001234567"; digits, at most one
 * point, no sign, no exponent), exact; or a JSON number, read through its shortest decimal text (so 0.1 is
 * 0.1). Non-negative, at most MAX_PROVIDER_COST_USD, at most twelve decimal places: a finer amount (a
 * float's noise, such as 0.30000000000000004) is refused, never rounded. Its whole pico-USD, or the problem.
 */
export function readProviderCost(value: unknown): bigint | ProviderCostProblem {
  let parts: ReturnType<typeof digitsOf>;
  if (typeof value === "number") {
    if (Number.isNaN(value)) return "type";
    if (!Number.isFinite(value)) return value > 0 ? "large" : "negative";
    parts = digitsOf(String(value), NUMBER_TEXT);
  } else if (typeof value === "string") {
    if (value.length > MAX_PROVIDER_COST_TEXT) return "format";
    parts = digitsOf(value, PLAIN_DECIMAL);
  } else {
    return "type";
  }
  if (parts === null) return "format";
  const { negative, whole, fraction } = parts;
  const picos = BigInt(whole) * PICOS_PER_USD + BigInt(fraction.padEnd(PROVIDER_COST_PLACES, "0").slice(0, 12) || "0");
  if (negative && (picos > 0n || fraction.length > 0)) return "negative";
  if (fraction.length > PROVIDER_COST_PLACES) return "precision";
  if (picos > MAX_PICOS) return "large";
  return picos;
}

/**
 * A provider cost a span reported as a number (a double, never an exact decimal) or as decimal text, in
 * whole pico-USD, rounded half up from its shortest decimal text; null when it is negative, not finite,
 * not a decimal, or more than a provider cost may be.
 */
export function roundedProviderCost(value: unknown): bigint | null {
  let parts: ReturnType<typeof digitsOf>;
  if (typeof value === "number") parts = Number.isFinite(value) ? digitsOf(String(value), NUMBER_TEXT) : null;
  else if (typeof value === "string" && value.length <= MAX_PROVIDER_COST_TEXT)
    parts = digitsOf(value.trim(), NUMBER_TEXT);
  else parts = null;
  if (parts === null) return null;
  const { negative, whole, fraction } = parts;
  const kept = fraction.padEnd(PROVIDER_COST_PLACES, "0").slice(0, PROVIDER_COST_PLACES);
  let picos = BigInt(whole) * PICOS_PER_USD + BigInt(kept);
  if (fraction.length > PROVIDER_COST_PLACES && Number(fraction[PROVIDER_COST_PLACES]) >= 5) picos += 1n;
  if (negative && picos > 0n) return null;
  return picos > MAX_PICOS ? null : picos;
}

/** Pico-USD as a fixed twelve-place decimal string: 123456700n -> "0.000123456700". */
export function picosToUsd(picos: bigint): string {
  const sign = picos < 0n ? "-" : "";
  const abs = picos < 0n ? -picos : picos;
  return `${sign}${abs / PICOS_PER_USD}.${(abs % PICOS_PER_USD).toString().padStart(12, "0")}`;
}

/**
 * Pico-USD of an xAI `cost_in_usd_ticks` (a non-negative whole number, as xAI's usage object carries it),
 * or null for anything else or more than a provider cost may be: the raw usage is free-form, so a value
 * that is not one is left unread, never refused.
 */
export function picosOfXaiTicks(ticks: unknown): bigint | null {
  if (typeof ticks !== "number" || !Number.isSafeInteger(ticks) || ticks < 0) return null;
  const picos = BigInt(ticks) * PICOS_PER_XAI_TICK;
  return picos > MAX_PICOS ? null : picos;
}

/** The xAI usage object's ticks: `provider_usage_raw` is that object as sent, or a response holding it as `usage`. */
function xaiTicksOf(raw: unknown): unknown {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return undefined;
  const own = raw as Record<string, unknown>;
  if (Object.hasOwn(own, "cost_in_usd_ticks")) return own.cost_in_usd_ticks;
  const usage = Object.hasOwn(own, "usage") ? own.usage : undefined;
  if (typeof usage !== "object" || usage === null || Array.isArray(usage)) return undefined;
  return Object.hasOwn(usage, "cost_in_usd_ticks") ? (usage as Record<string, unknown>).cost_in_usd_ticks : undefined;
}

/**
 * The provider cost a transaction carries, in pico-USD, or null: its own `provider_cost` when it has one
 * (it wins), otherwise, for provider `xai`, the `cost_in_usd_ticks` in its `provider_usage_raw`.
 */
export function reportedCostPicos(transaction: {
  provider: string;
  provider_cost?: unknown;
  provider_usage_raw?: unknown;
}): bigint | null {
  if (transaction.provider_cost !== undefined) {
    const picos = readProviderCost(transaction.provider_cost);
    return typeof picos === "bigint" ? picos : null;
  }
  if (transaction.provider !== "xai") return null;
  return picosOfXaiTicks(xaiTicksOf(transaction.provider_usage_raw));
}
