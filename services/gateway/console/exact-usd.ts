/**
 * Money as the API gives it (exact decimal strings of USD, e.g. "10.350000003") shown exactly: cents
 * where cents suffice, every further digit where they do not ("0.006000000" is $0.006, never $0.01).
 * Only the string's digits are handled: no float ever rounds an amount.
 */
const DECIMAL = /^(-?)(\d+)(?:\.(\d*))?$/;

const grouped = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");

export function exactUsd(decimal: string | null | undefined): string {
  const match = DECIMAL.exec(String(decimal ?? "").trim());
  if (!match) return decimal === null || decimal === undefined ? "" : String(decimal);
  const [, minus = "", whole = "0", fraction = ""] = match;
  const digits = fraction.replace(/0+$/, "").padEnd(2, "0");
  const zero = !/[1-9]/.test(whole + fraction);
  return `${minus && !zero ? "-" : ""}$${grouped(whole.replace(/^0+(?=\d)/, ""))}.${digits}`;
}

/** A count as the browser's locale groups it. */
export const count = (value: number | null | undefined) => (value ?? 0).toLocaleString();

const NANO_PLACES = 9;

/** A decimal of USD (at most nine places, as the API gives money) as nano-USD, exactly; null when it is not one. */
export function nanosOf(decimal: string | null | undefined): bigint | null {
  const match = DECIMAL.exec(String(decimal ?? "").trim());
  if (!match || (match[3] ?? "").length > NANO_PLACES) return null;
  const [, minus = "", whole = "0", fraction = ""] = match;
  const nanos = BigInt(whole) * 1_000_000_000n + BigInt(fraction.padEnd(NANO_PLACES, "0"));
  return minus ? -nanos : nanos;
}

/** Nano-USD as the API's nine-place decimal string ("-0.075000000"). */
export function decimalOf(nanos: bigint): string {
  const size = nanos < 0n ? -nanos : nanos;
  const text = size.toString().padStart(NANO_PLACES + 1, "0");
  return `${nanos < 0n ? "-" : ""}${text.slice(0, -NANO_PLACES)}.${text.slice(-NANO_PLACES)}`;
}

/** A difference: exact, with its sign ("+$0.075", "-$0.50", "$0.00"). */
export const signedUsd = (decimal: string) => `${(nanosOf(decimal) ?? 0n) > 0n ? "+" : ""}${exactUsd(decimal)}`;

/** `part` as a percentage of `whole`, signed, to two places ("+8.50%"); null when `whole` is zero. */
export function percentOf(part: bigint, whole: bigint): string | null {
  if (whole === 0n) return null;
  const size = whole < 0n ? -whole : whole;
  const scaled = ((part < 0n ? -part : part) * 10_000n + size / 2n) / size;
  const text = `${scaled / 100n}.${String(scaled % 100n).padStart(2, "0")}%`;
  return scaled === 0n ? "0.00%" : `${part < 0n ? "-" : "+"}${text}`;
}
