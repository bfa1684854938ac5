import { signedTokens } from "@usage-ingestion/shared/server";
import type { ReportField } from "./report-fields.ts";

/** What a page token keeps of the query it belongs to. */
export interface PagedQuery {
  from: Date;
  to: Date;
  groupBy: readonly ReportField[];
  filters: Partial<Record<ReportField, string>>;
}

/** Where a later page of a cost report starts, over which range (the first page's, resolved). */
export interface ReportPage {
  offset: number;
  from: Date;
  to: Date;
}

/**
 * The page tokens of `GET /usage/costs`, signed as the records listing's are (`signedTokens`, the same
 * `PAGE_TOKEN_KEY`, a context of their own): the offset of the next page's first group and the range,
 * resolved (a default `to` is "now", which a later page must not move). The organization, the grouping and
 * the filters are signed, not written, so a token is good for that query of that organization only.
 */
export interface ReportPageTokens {
  sign(organizationId: string, query: PagedQuery, offset: number): string;
  /** The page a token stands for, or null when it is not one of ours for this organization and query. */
  read(organizationId: string, query: Pick<PagedQuery, "groupBy" | "filters">, token: string): ReportPage | null;
}

const VERSION = 1;
const CONTEXT = "usage-costs-page-token";

/** The grouping and filters a token was made for, in one order whatever the order of the parameters. */
function queryBinding(organizationId: string, query: Pick<PagedQuery, "groupBy" | "filters">): string[] {
  const filters = Object.entries(query.filters).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return [organizationId, JSON.stringify([query.groupBy, filters])];
}

const isCount = (value: unknown): value is number =>
  typeof value === "number" && Number.isSafeInteger(value) && value >= 0;

export function reportPageTokens(key: string): ReportPageTokens {
  const tokens = signedTokens(key, CONTEXT);
  return {
    sign(organizationId, query, offset) {
      return tokens.sign(queryBinding(organizationId, query), [
        VERSION,
        offset,
        query.from.getTime(),
        query.to.getTime(),
      ]);
    },
    read(organizationId, query, token) {
      const payload = tokens.read(queryBinding(organizationId, query), token);
      if (payload === null || payload.length !== 4 || payload[0] !== VERSION) return null;
      const [, offset, from, to] = payload;
      if (!isCount(offset) || !isCount(from) || !isCount(to)) return null;
      return { offset, from: new Date(from), to: new Date(to) };
    },
  };
}
