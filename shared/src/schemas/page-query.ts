import * as v from "valibot";
import { checkWithCode } from "../field-errors.ts";

/** Lists of the management API: `limit` (default 100, at most 1,000) and an opaque `page_token`. */
export const DEFAULT_PAGE_LIMIT = 100;
export const MAX_PAGE_LIMIT = 1_000;
export const MAX_PAGE_TOKEN_LENGTH = 512;

export const PageQuerySchema = v.object({
  limit: v.optional(
    v.pipe(
      v.string("must be a whole number"),
      checkWithCode<string>("invalid_type", (text) => /^\d{1,7}$/.test(text), "must be a whole number"),
      v.transform(Number),
      v.minValue(1, "must be at least 1"),
      v.maxValue(MAX_PAGE_LIMIT, `must be at most ${MAX_PAGE_LIMIT}`),
    ),
  ),
  page_token: v.optional(
    v.pipe(
      v.string("must be a string"),
      v.maxLength(MAX_PAGE_TOKEN_LENGTH, `must be at most ${MAX_PAGE_TOKEN_LENGTH} characters`),
    ),
  ),
});
export type PageQuery = v.InferOutput<typeof PageQuerySchema>;
