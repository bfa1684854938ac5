import type { Firestore } from "@google-cloud/firestore";
import { DOCUMENT_PATHS, withTimeout } from "@usage-ingestion/shared";
import { ttlCache } from "@usage-ingestion/shared/server";
import type { OrganizationDocument } from "./organization-documents.ts";

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
  const get = ttlCache(
    ttlMs,
    async (organizationId) => {
      const snap = await withTimeout(
        db.doc(DOCUMENT_PATHS.organization(organizationId)).get(),
        timeoutMs,
        () => new Error(`reading organization ${organizationId} took longer than ${timeoutMs} ms`),
      );
      return (snap.data() as OrganizationDocument | undefined)?.dimensions ?? [];
    },
    now,
  );
  return { get };
}
