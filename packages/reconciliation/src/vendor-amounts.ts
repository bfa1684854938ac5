import { decimal, toNanos } from "@usage-ingestion/shared";
import { VendorAnswerError } from "./vendor-http.ts";

/** A decimal with an optional minus sign (a credit or a correction), in whole nano-USD, half away from zero. */
function signedNanos(text: string, extraScale: number, what: string): bigint {
  const negative = text.startsWith("-");
  const digits = negative ? text.slice(1) : text;
  let parsed: ReturnType<typeof decimal>;
  try {
    parsed = decimal(digits);
  } catch {
    throw new VendorAnswerError(`${what} is not a decimal amount: ${JSON.stringify(text.slice(0, 40))}`);
  }
  const nanos = toNanos({ coefficient: parsed.coefficient, scale: parsed.scale + extraScale });
  return negative ? -nanos : nanos;
}

/**
 * Anthropic's cost report: "Cost amount in lowest currency units (e.g. cents) as a decimal string. For
 * example, "123.45" in "USD" represents $1.23." (platform.claude.com/docs/en/api/admin/cost_report). A cent
 * is 10^7 nano-USD: the string is read exactly, never through a float.
 */
export function centsToNanos(amount: unknown): bigint {
  if (typeof amount !== "string" || amount.length === 0 || amount.length > 40) {
    throw new VendorAnswerError("a cost amount is not a decimal string of cents");
  }
  return signedNanos(amount.trim(), 2, "a cost amount");
}

/**
 * OpenAI's Costs API gives `amount.value` as a JSON number of USD. The number is taken through its
 * shortest text (what JSON wrote), so 0.06 is 60,000,000 nanos exactly; past nine places it rounds once.
 */
export function usdNumberToNanos(value: unknown): bigint {
  if (typeof value !== "number" || !Number.isFinite(value) || Math.abs(value) > 1e12) {
    throw new VendorAnswerError("a cost amount is not a finite number of USD");
  }
  return signedNanos(String(value), 0, "a cost amount");
}

/**
 * Google's billing export, summed as NUMERIC (nine places) and read as its text, and Cost Explorer's
 * `Amount`: a decimal string of USD, a credit negative, read exactly.
 */
export function usdDecimalToNanos(amount: unknown): bigint {
  if (typeof amount !== "string" || amount.trim().length === 0 || amount.length > 40) {
    throw new VendorAnswerError("a cost amount is not a decimal string of USD");
  }
  return signedNanos(amount.trim(), 0, "a cost amount");
}
