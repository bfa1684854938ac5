import type { KeyScope } from "@usage-ingestion/organizations";
import type { FakeKeyStore } from "./fake-key-store.ts";

/** A request without a usable key, and what the refusal's message must say. */
export interface AuthCase {
  name: string;
  /** The request's headers, after whatever the case does to the key store. */
  headers: (keys: FakeKeyStore) => Record<string, string>;
  message: RegExp;
}

const INVALID = /The API key is invalid or missing\./;

/**
 * The refusals every authenticated route shares, for a route that takes keys of `scope`: each is a 401
 * that tells nothing about the key (a disabled key, or one of the other scope, reads as an unknown one).
 */
export function authCases(scope: KeyScope): AuthCase[] {
  return [
    { name: "no X-Api-Key header", headers: () => ({}), message: /The X-Api-Key header is required\./ },
    { name: "an empty key", headers: () => ({ "x-api-key": "" }), message: INVALID },
    { name: "an unknown key", headers: () => ({ "x-api-key": "usk_no-such-key" }), message: INVALID },
    {
      name: "a disabled key",
      headers: (keys) => {
        const org = keys.organization();
        const key = scope === "read" ? org.readKey : org.ingestKey;
        keys.disable(key);
        return { "x-api-key": key };
      },
      message: INVALID,
    },
    {
      name: `a key of another scope than ${scope}`,
      headers: (keys) => {
        const org = keys.organization();
        return { "x-api-key": scope === "read" ? org.ingestKey : org.readKey };
      },
      message: INVALID,
    },
  ];
}
