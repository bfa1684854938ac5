import { isWellFormed } from "@usage-ingestion/shared";

/**
 * Firestore refuses some JSON the gateway accepts: arrays directly inside arrays, empty map keys, keys
 * of the reserved form `__name__`, keys over 1,500 bytes, text that is not valid Unicode (lone
 * surrogates), and nesting deeper than 20 levels. Such parts
 * are kept, losslessly, as JSON text; every storable key stays where it was, so `context` keeps its shape (it is exempt from indexing in Terraform: reports read roll-up cells).
 */
export const UNSTORABLE_KEYS_FIELD = "_unstorable_json";
const MAX_DEPTH = 12;
const MAX_KEY_BYTES = 1_500;

const storableKey = (key: string) =>
  key !== "" &&
  key !== UNSTORABLE_KEYS_FIELD &&
  !/^__.*__$/.test(key) &&
  isWellFormed(key) &&
  Buffer.byteLength(key) <= MAX_KEY_BYTES;

/** Text with a lone surrogate cannot be stored as UTF-8; its JSON escapes it (`"\ud800"`) losslessly. */
const unstorableText = (value: unknown) => typeof value === "string" && !isWellFormed(value);

export function firestoreSafe(value: unknown, depth = 0, insideArray = false): unknown {
  if (unstorableText(value)) return JSON.stringify(value);
  if (value === null || typeof value !== "object") return value;
  if (depth >= MAX_DEPTH) return JSON.stringify(value);
  if (Array.isArray(value)) {
    if (insideArray) return JSON.stringify(value);
    return value.map((item) => firestoreSafe(item, depth + 1, true));
  }
  // Built from entries, so that a key `__proto__` is a key like any other, never the prototype's setter.
  const safe: Array<[string, unknown]> = [];
  const unstorable: Array<[string, unknown]> = [];
  for (const [key, item] of Object.entries(value)) {
    if (storableKey(key) && !unstorableText(item)) safe.push([key, firestoreSafe(item, depth + 1, false)]);
    else unstorable.push([key, item]);
  }
  if (unstorable.length > 0) safe.push([UNSTORABLE_KEYS_FIELD, JSON.stringify(Object.fromEntries(unstorable))]);
  return Object.fromEntries(safe);
}
