// Money as people read it, from the API's exact decimal strings (`cost_usd`, e.g. "10.350000003").
// The rounding is done on the string's digits with BigInt, never through a float, so any number of digits
// is exact: half-up to the cent ("0.005000000" is $0.01, "10.345000000" is $10.35).

const DECIMAL = /^(-?)(\d+)(?:\.(\d*))?$/;

/** Thousands separators for a string of digits: "1234567" -> "1,234,567". */
const grouped = (digits) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");

/**
 * A decimal string of US dollars as `$1,234.50`: 2 decimals, rounded half-up (half away from zero for a
 * negative amount), with thousands separators. An amount above zero that rounds to $0.00 is shown as
 * `<$0.01` so it does not read as nothing spent. Negative amounts are not expected; one is shown as
 * `-$1.23` (and `-<$0.01` below a cent). Anything that is not a plain decimal string is shown as it came.
 */
export function formatUsd(decimal) {
  const match = DECIMAL.exec(String(decimal ?? "").trim());
  if (!match) return String(decimal ?? "");
  const [, minus, whole, fraction = ""] = match;
  const cents = BigInt(whole + fraction.padEnd(2, "0").slice(0, 2)) + (fraction.charAt(2) >= "5" ? 1n : 0n);
  const nonZero = /[1-9]/.test(whole + fraction);
  const sign = minus && nonZero ? "-" : "";
  if (cents === 0n) return nonZero ? `${sign}<$0.01` : "$0.00";
  const dollars = grouped((cents / 100n).toString());
  return `${sign}$${dollars}.${(cents % 100n).toString().padStart(2, "0")}`;
}

/** For chart axes, which plot numbers: 1234.5 as `$1,234.50`, and ticks below a cent with their digits. */
const AXIS = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  minimumFractionDigits: 2,
  maximumFractionDigits: 6,
});
export const formatAxisUsd = (value) => AXIS.format(value);
