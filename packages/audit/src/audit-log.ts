import type { Firestore } from "@google-cloud/firestore";
import { UserError } from "@usage-ingestion/shared";
import { type AuditEntry, auditCollection } from "./audit-entry.ts";

export const DEFAULT_AUDIT_PAGE = 100;
export const MAX_AUDIT_PAGE = 1_000;
const ENTRY_ID = /^\d{15}_[0-9a-f]{12}$/;

/**
 * The organization's entries, newest first, from every database that holds some (the records database and
 * the keys database: docs/decisions/0024), merged by id. `pageToken` is the last id of the previous page.
 * Ordered by the `id` field (the single-field index Firestore keeps), since document ids only scan ascending.
 */
export async function listAuditLog(
  databases: readonly Firestore[],
  organizationId: string,
  options: { limit?: number; pageToken?: string } = {},
): Promise<{ entries: AuditEntry[]; nextPageToken?: string }> {
  const limit = options.limit ?? DEFAULT_AUDIT_PAGE;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_AUDIT_PAGE) {
    throw new UserError(`limit must be a whole number from 1 to ${MAX_AUDIT_PAGE}`);
  }
  if (options.pageToken !== undefined && !ENTRY_ID.test(options.pageToken)) {
    throw new UserError("page_token is not one this service gave");
  }
  const pages = await Promise.all(
    [...new Set(databases)].map(async (db) => {
      let query = auditCollection(db, organizationId).orderBy("id", "desc");
      if (options.pageToken) query = query.startAfter(options.pageToken);
      return (await query.limit(limit + 1).get()).docs.map((doc) => doc.data() as AuditEntry);
    }),
  );
  const merged = pages.flat().sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  const entries = merged.slice(0, limit);
  const last = entries.at(-1);
  return merged.length > limit && last ? { entries, nextPageToken: last.id } : { entries };
}
