import { createHash } from "node:crypto";
import {
  CONTEXT_PREFIX,
  checkRange,
  dimensionOf,
  type Parsed,
  RANGE_PARAMS,
  rangeIssue,
  rejectQuery,
  type TimeRange,
} from "@usage-ingestion/reports";
import {
  checkWithCode,
  type FieldError,
  identifierBytes,
  oneOf,
  PROVIDERS,
  RECORD_STATUSES,
  type RecordStatus,
  toFieldErrors,
} from "@usage-ingestion/shared";
import * as v from "valibot";
import { MAX_PAGE_TOKEN_LENGTH, type PageTokens, type RecordsPosition } from "./records-page-token.ts";

/** Records in one answer (management API: lists take `limit`, default 100, at most 1,000). */
export const DEFAULT_RECORDS_PER_PAGE = 100;
export const MAX_RECORDS_PER_PAGE = 1_000;

const wholeNumber = (value: string) => /^\d{1,16}$/.test(value);

/** No stored identifier is longer (shared/src/limits.ts), so a longer filter could never match. */
const text = v.pipe(v.string("must be a string"), v.minLength(1, "must not be empty"), identifierBytes);

/**
 * The query parameters of `GET /usage/records`, as Valibot schemas: the route validates with them and the
 * OpenAPI document is generated from them. `context.<declared dimension>` is taken beside these.
 */
export const RECORDS_PARAMS = {
  ...RANGE_PARAMS,
  provider: v.pipe(oneOf(PROVIDERS), v.description("Only this provider.")),
  model: v.pipe(text, v.description("Only this model, as sent.")),
  model_tier: v.pipe(text, v.description("Only this model tier, as sent.")),
  billable_customer_id: v.pipe(text, v.description("Only this customer.")),
  status: v.pipe(
    oneOf(RECORD_STATUSES),
    v.description("Only records of this status: priced, unpriced, duplicate or conflict."),
  ),
  limit: v.pipe(
    v.string("must be a string"),
    // One error per value: the bounds are judged only of a whole number.
    checkWithCode<string>("invalid_type", wholeNumber, "must be a whole number"),
    checkWithCode<string>("too_small", (value) => !wholeNumber(value) || Number(value) >= 1, "must be at least 1"),
    checkWithCode<string>(
      "too_large",
      (value) => !wholeNumber(value) || Number(value) <= MAX_RECORDS_PER_PAGE,
      `must be at most ${MAX_RECORDS_PER_PAGE}`,
    ),
    v.description(`Records in one answer: default ${DEFAULT_RECORDS_PER_PAGE}, at most ${MAX_RECORDS_PER_PAGE}.`),
  ),
  page_token: v.pipe(
    v.string("must be a string"),
    v.minLength(1, "must not be empty"),
    v.maxLength(MAX_PAGE_TOKEN_LENGTH, `must be at most ${MAX_PAGE_TOKEN_LENGTH} characters`),
    v.description(
      "The `next_page_token` of the previous answer, with the same filters; the range stays the first page's.",
    ),
  ),
};

type ParamName = keyof typeof RECORDS_PARAMS;

/** The fields a listing keeps one value of; `context.<dimension>` beside them. */
export const RECORD_FILTER_FIELDS = ["provider", "model", "model_tier", "billable_customer_id", "status"] as const;
export type RecordFilterField = (typeof RECORD_FILTER_FIELDS)[number];

export interface RecordFilters {
  provider?: string;
  model?: string;
  model_tier?: string;
  billable_customer_id?: string;
  status?: RecordStatus;
  /** Declared dimension -> the value kept, as the record's roll-up cell holds it (`dimensions`). */
  dimensions: Record<string, string>;
}

export interface RecordsQuery extends TimeRange {
  filters: RecordFilters;
  limit: number;
  /** Where the previous page ended; absent on the first page. */
  page?: RecordsPosition;
}

const issue = (field: string, code: FieldError["code"], message: string): FieldError => ({ field, code, message });

/** The filters in a canonical text: a page token is good only for the filters it was made with. */
export function recordsFingerprint(filters: RecordFilters): string {
  const fixed = RECORD_FILTER_FIELDS.map((field) => filters[field] ?? null);
  const dimensions = Object.entries(filters.dimensions).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash("sha256")
    .update(JSON.stringify([fixed, dimensions]))
    .digest("base64url");
}

/** Each known parameter once, each valid; unknown ones refused, so a typo never lists everything. */
function checkParams(params: Record<string, unknown>, declared: readonly string[], filters: RecordFilters) {
  const errors: FieldError[] = [];
  for (const [name, value] of Object.entries(params)) {
    const dimension = dimensionOf(name);
    // Own keys only: `constructor` or `__proto__` is an unknown parameter, never Object's own property.
    const known = Object.hasOwn(RECORDS_PARAMS, name);
    if (!known && dimension === null) {
      errors.push(issue(name, "invalid_value", `${name} is not a parameter of this route`));
    } else if (typeof value !== "string") {
      errors.push(issue(name, "invalid_type", `${name} must be given once, as text`));
    } else if (dimension !== null && !declared.includes(dimension)) {
      const list = declared.map((each) => CONTEXT_PREFIX + each).join(", ") || "none";
      errors.push(issue(name, "invalid_value", `${name} is not a declared context dimension; declared: ${list}`));
    } else {
      const result = v.safeParse(known ? RECORDS_PARAMS[name as ParamName] : text, value);
      if (!result.success) errors.push(...toFieldErrors(result.issues, { root: name }));
      else if (dimension !== null) filters.dimensions[dimension] = value;
      else if ((RECORD_FILTER_FIELDS as readonly string[]).includes(name)) {
        (filters as unknown as Record<string, string>)[name] = value;
      }
    }
  }
  return errors;
}

/**
 * The parameters of `GET /usage/records`: the range (as `/usage/costs` takes it), the filters, `limit` and
 * `page_token`. A token is checked against the organization and the filters it was signed for; a later page
 * keeps the first page's range, resolved (a default `to` is "now", which must not move under the paging).
 */
export function parseRecordsQuery(
  params: Record<string, unknown>,
  declared: readonly string[],
  now: Date,
  tokens: PageTokens,
  organizationId: string,
): Parsed<RecordsQuery> {
  const filters: RecordFilters = { dimensions: {} };
  const errors = checkParams(params, declared, filters);
  const range = checkRange(params, now, errors);
  if (errors.length > 0) return rejectQuery(errors);
  const limit = typeof params.limit === "string" ? Number(params.limit) : DEFAULT_RECORDS_PER_PAGE;
  if (typeof params.page_token !== "string") return { ok: true, query: { ...range, filters, limit } };
  const page = tokens.read({ organizationId, filters: recordsFingerprint(filters) }, params.page_token);
  const moved = (name: "from" | "to") =>
    page !== null && typeof params[name] === "string" && range[name].getTime() !== page[name].getTime();
  if (page === null || moved("from") || moved("to")) {
    const message = "page_token must be a next_page_token of this listing, with the same filters and range";
    return rejectQuery([issue("page_token", "invalid_value", message)]);
  }
  // Signed by us, so it held when it was written; the rule is checked again all the same.
  const broken = rangeIssue(page, "page_token");
  if (broken) return rejectQuery([broken]);
  return { ok: true, query: { from: page.from, to: page.to, filters, limit, page } };
}
