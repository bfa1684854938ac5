import { isWellFormed } from "./unicode.ts";

/** A dimension's value as a cell holds it: text as it is, anything else as its JSON, absent as null. */
export function dimensionValue(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  // Text that is not valid Unicode cannot be stored as it is: its JSON escapes the lone surrogate.
  return typeof value === "string" && isWellFormed(value) ? value : JSON.stringify(value);
}
