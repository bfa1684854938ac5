import { createHash } from "node:crypto";
import type { ReportField } from "./report-fields.ts";

/** What a page token keeps of the query it belongs to. */
export interface PagedQuery {
  from: Date;
  to: Date;
  groupBy: readonly ReportField[];
  filters: Partial<Record<ReportField, string>>;
}

/** The grouping and filters a token was made for, so a token is never used with another query. */
function fingerprint(query: Pick<PagedQuery, "groupBy" | "filters">): string {
  const filters = Object.entries(query.filters).sort(([a], [b]) => a.localeCompare(b));
  return createHash("sha256")
    .update(JSON.stringify([query.groupBy, filters]))
    .digest("base64url")
    .slice(0, 16);
}

/**
 * The next page's token: the offset of its first group and the range, resolved (a default `to` is "now",
 * which a later page must not move), with the query's fingerprint. Opaque to clients.
 */
export function pageToken(query: PagedQuery, offset: number): string {
  const parts = [offset, query.from.getTime(), query.to.getTime(), fingerprint(query)];
  return Buffer.from(parts.join(".")).toString("base64url");
}

/** The offset and range a token stands for, or null when it is not one of ours for this query. */
export function readPageToken(
  token: string,
  query: Pick<PagedQuery, "groupBy" | "filters">,
): { offset: number; from: Date; to: Date } | null {
  const parts = Buffer.from(token, "base64url").toString("utf8").split(".");
  if (parts.length !== 4 || parts[3] !== fingerprint(query)) return null;
  const [offset, from, to] = parts.slice(0, 3).map((part) => (/^\d{1,16}$/.test(part ?? "") ? Number(part) : NaN));
  if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(from) || !Number.isSafeInteger(to)) return null;
  return { offset: offset as number, from: new Date(from as number), to: new Date(to as number) };
}
