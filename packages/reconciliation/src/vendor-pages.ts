import * as v from "valibot";
import { allPages, VendorAnswerError, type VendorHttp } from "./vendor-http.ts";

/**
 * What OpenAI's and Anthropic's admin reports share: a page `{ data, has_more, next_page }` whose next page
 * is the same address with `page` set to `next_page`, token counts that may be absent or null, and the
 * grouping ids a result names (null where the vendor names none).
 */
export const tokenCount = v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0))), 0);
export const groupId = v.optional(v.nullable(v.pipe(v.string(), v.maxLength(256))), null);

export const cursorPage = <T extends v.GenericSchema>(bucket: T) =>
  v.looseObject({
    data: v.array(bucket),
    has_more: v.optional(v.boolean(), false),
    next_page: v.optional(v.nullable(v.string())),
  });

/** The vendor's address for `path` with `params`; a proxy's own path under the base is kept whole. */
export function vendorUrl(baseUrl: string, path: string, params: ReadonlyArray<[string, string]>): URL {
  const at = new URL(`${baseUrl.replace(/\/+$/, "")}${path}`);
  at.search = new URLSearchParams(params as Array<[string, string]>).toString();
  return at;
}

/**
 * Every bucket of a paged report, each page checked against `page`; one that is not as documented is a
 * VendorAnswerError naming the vendor, `what` ("usage", "cost report") and the vendor's word for a page.
 */
export async function readCursorPages<T extends v.GenericSchema>(
  http: VendorHttp,
  vendor: string,
  first: URL,
  headers: Record<string, string>,
  page: ReturnType<typeof cursorPage<T>>,
  what: string,
  pageWord = "page",
): Promise<Array<v.InferOutput<T>>> {
  return allPages(
    http,
    vendor,
    first,
    headers,
    (answer) => {
      const result = v.safeParse(page, answer);
      if (!result.success)
        throw new VendorAnswerError(`${vendor} ${what}: the answer is not the documented ${pageWord}`);
      const { data, has_more, next_page } = result.output;
      return { items: data, nextPage: has_more ? (next_page ?? null) : null };
    },
    (token) => {
      const at = new URL(first);
      at.searchParams.set("page", token);
      return at;
    },
  );
}
