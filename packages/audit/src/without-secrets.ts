/** Field names whose values are secrets or stand for one (a key's hash finds the key). */
const SECRET_FIELD = /secret|encrypted|credential|password|token|hash|^key$/i;
/** Texts that are secrets whatever field holds them: API keys and webhook secrets. */
const SECRET_TEXT = /^(usk_|whsec_)/;
export const REDACTED = "[redacted]";

/**
 * A copy of `value` with every secret left out: fields named like one are dropped, texts shaped like one
 * are replaced. Entries are kept forever and read by every viewer, so nothing secret may enter one even if
 * a caller passes a whole document by mistake.
 */
export function withoutSecrets(value: unknown): unknown {
  if (typeof value === "string") return SECRET_TEXT.test(value) ? REDACTED : value;
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([name, field]) => !SECRET_FIELD.test(name) && field !== undefined)
        .map(([name, field]) => [name, withoutSecrets(field)]),
    );
  }
  return value;
}
