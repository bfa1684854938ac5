import { DEFAULT_PAGE_LIMIT, PageQuerySchema } from "@usage-ingestion/shared";
import type { Request, Response } from "express";
import { validated } from "./validated.ts";

/** The query's `limit` and `page_token`, or undefined once a 400 was sent. */
export function pageQuery(req: Request, res: Response): { limit: number; pageToken?: string } | undefined {
  const query = req.query as Record<string, unknown>;
  const page = validated(res, PageQuerySchema, { limit: query.limit, page_token: query.page_token }, "query");
  if (!page) return undefined;
  return { limit: page.limit ?? DEFAULT_PAGE_LIMIT, ...(page.page_token ? { pageToken: page.page_token } : {}) };
}

/**
 * One page of a list already held whole (keys, prices, budgets, webhooks: each bounded per organization),
 * ordered by `id`: the page token is the last id given, so a page stays right while items are added.
 */
export function pageOf<T extends { id: string }>(
  items: readonly T[],
  page: { limit: number; pageToken?: string },
): { items: T[]; nextPageToken?: string } {
  const sorted = [...items].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const after = page.pageToken === undefined ? sorted : sorted.filter((item) => item.id > (page.pageToken as string));
  const slice = after.slice(0, page.limit);
  const last = slice.at(-1);
  return after.length > page.limit && last ? { items: slice, nextPageToken: last.id } : { items: slice };
}

/** `{ "<plural>": [...], "next_page_token"?: ... }`, the spec's shape of every list. */
export const listBody = (plural: string, items: unknown[], nextPageToken?: string) => ({
  [plural]: items,
  ...(nextPageToken ? { next_page_token: nextPageToken } : {}),
});
