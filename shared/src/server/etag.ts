import { createHash } from "node:crypto";
import { ConflictError } from "../user-error.ts";

/** A resource's version: a digest of what is stored, so any change, by anyone, gives a new one. */
export const etagOf = (stored: unknown): string =>
  createHash("sha256").update(JSON.stringify(stored)).digest("base64url").slice(0, 22);

/**
 * Throws ConflictError (409) when the client's If-Match names another version than `current`: someone
 * changed the resource since the client read it. `*` or none matches any version. Stores call it inside
 * the change's own transaction, so a change made in between is seen.
 */
export function checkIfMatch(expected: string | undefined, current: string, what: string): void {
  if (expected === undefined || expected === "*" || expected === current) return;
  throw new ConflictError(`${what} changed since it was read (If-Match ${expected}, now ${current}); read it again`);
}
