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
