import type { Firestore } from "@google-cloud/firestore";
import { DOCUMENT_PATHS, type OrganizationDocument, withTimeout } from "@usage-ingestion/shared";

/** The organization's declared context dimensions: what its roll-up cells are grouped by. */
export interface DimensionsStore {
  get(organizationId: string): Promise<string[]>;
}

/** Reads the organization document, cached per organization for `ttlMs` (declarations are rare). */
export function firestoreDimensionsStore(
  db: Firestore,
  ttlMs: number,
  timeoutMs = 10_000,
  now = Date.now,
): DimensionsStore {
  const cache = new Map<string, { value: string[]; expiresAt: number }>();
  return {
    async get(organizationId) {
      const cached = cache.get(organizationId);
      if (cached && cached.expiresAt > now()) return cached.value;
      const snap = await withTimeout(
        db.doc(DOCUMENT_PATHS.organization(organizationId)).get(),
        timeoutMs,
        () => new Error(`reading organization ${organizationId} took longer than ${timeoutMs} ms`),
      );
      const value = (snap.data() as OrganizationDocument | undefined)?.dimensions ?? [];
      if (ttlMs > 0) cache.set(organizationId, { value, expiresAt: now() + ttlMs });
      return value;
    },
  };
}
