import { hashApiKey } from "./api-keys.ts";

/** How many keys' hashes one authenticating middleware keeps (oldest first out). */
export const KNOWN_KEY_HASHES = 1_000;

/**
 * The SHA-256 of keys already found valid, so that a busy client's key is hashed once rather than on each
 * request. Only keys the store returned for this scope are kept: an unknown or random key is hashed every
 * time and never enters, so a flood of them cannot push a good key out. A key's hash never changes, so
 * nothing here goes stale; whether the key is still active is the key store's answer on every request
 * (revocation takes effect within its cache's TTL, as before). Being kept here also makes a key known:
 * the unknown keys' limit of an address never applies to it (a key the store no longer finds is forgotten).
 */
export function knownKeyHashes(maxEntries = KNOWN_KEY_HASHES) {
  const hashes = new Map<string, string>();
  return {
    hash: (key: string): string => hashes.get(key) ?? hashApiKey(key),
    /** Whether the store found this key valid here before (and has not since answered that it is not). */
    known: (key: string): boolean => hashes.has(key),
    forget(key: string): void {
      hashes.delete(key);
    },
    remember(key: string, hash: string): void {
      if (hashes.has(key)) return;
      if (hashes.size >= maxEntries) {
        const oldest = hashes.keys().next();
        if (!oldest.done) hashes.delete(oldest.value);
      }
      hashes.set(key, hash);
    },
    get size() {
      return hashes.size;
    },
  };
}
