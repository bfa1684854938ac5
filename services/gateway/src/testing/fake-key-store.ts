import { randomUUID } from "node:crypto";
import { type ActiveKey, hashApiKey, type KeyScope, type KeyStore } from "@usage-ingestion/organizations";

/** An organization the fake store holds, with one key of each scope the gateway's routes take. */
export interface FakeOrganization {
  organizationId: string;
  ingestKey: string;
  readKey: string;
}

/**
 * The key store in memory: keys are found by their SHA-256, as Firestore finds them, so the gateway's own
 * hashing and caching run as in production. A disabled key (or organization) is simply not found, which is
 * what the real store answers for both.
 */
export function fakeKeyStore() {
  const keys = new Map<string, ActiveKey>();
  let outage: Error | undefined;
  const store = {
    async findActiveKey(keyHash: string): Promise<ActiveKey | null> {
      if (outage) throw outage;
      return keys.get(keyHash) ?? null;
    },
    /** Holds `key` for the organization, with `scope` and whatever else its look-up carries. */
    add(key: string, organizationId: string, scope: KeyScope = "ingest", more: Partial<ActiveKey> = {}): void {
      keys.set(hashApiKey(key), { organizationId, scope, dimensions: [], ...more });
    },
    /** A fresh organization with random ids, so that no test sees another's keys. */
    organization(more: Partial<ActiveKey> = {}): FakeOrganization {
      const organizationId = `org-${randomUUID()}`;
      const ingestKey = `usk_${randomUUID().replaceAll("-", "")}`;
      const readKey = `usk_${randomUUID().replaceAll("-", "")}`;
      store.add(ingestKey, organizationId, "ingest", more);
      store.add(readKey, organizationId, "read", more);
      return { organizationId, ingestKey, readKey };
    },
    disable(key: string): void {
      keys.delete(hashApiKey(key));
    },
    /** Every look-up fails with `error` (undefined: the store answers again). */
    failWith(error: Error | undefined): void {
      outage = error;
    },
  } satisfies KeyStore & Record<string, unknown>;
  return store;
}

export type FakeKeyStore = ReturnType<typeof fakeKeyStore>;
