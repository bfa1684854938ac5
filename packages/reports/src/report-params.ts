import { checkWithCode, oneOf, PROVIDERS } from "@usage-ingestion/shared";
import * as v from "valibot";

/**
 * The query parameters of the report routes, as Valibot schemas: the routes validate with them and the
 * OpenAPI document is generated from them.
 */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/** The instant an ISO 8601 text names (a bare date is midnight UTC), or null when it names none. */
export function parseInstant(text: string): Date | null {
  if (!ISO_TIME.test(text)) return null;
  const date = new Date(text.length === 10 ? `${text}T00:00:00Z` : text);
  if (Number.isNaN(date.getTime())) return null;
  // `2026-02-30` parses by rolling over into March: the day must exist in its month.
  const [year, month, day] = text.slice(0, 10).split("-").map(Number) as [number, number, number];
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate() ? date : null;
}

const isoInstant = v.pipe(
  v.string("must be a string"),
  checkWithCode<string>(
    "invalid_format",
    (text) => parseInstant(text) !== null,
    "must be an ISO 8601 date or date-time with a time zone",
  ),
  v.description("ISO 8601: `2026-11-01` (midnight UTC) or `2026-11-01T12:00:00Z` / `+02:00`; receive time."),
);
const text = v.pipe(v.string("must be a string"), v.minLength(1, "must not be empty"));

export const RANGE_PARAMS = {
  from: v.pipe(
    isoInstant,
    v.description("Start of the range, inclusive. Default: 00:00 UTC 30 days before `to`'s day."),
  ),
  to: v.pipe(isoInstant, v.description("End of the range, exclusive. Default: now.")),
};

export const FILTER_PARAMS = {
  day: v.pipe(
    v.string("must be a string"),
    checkWithCode<string>(
      "invalid_format",
      (value) => value.length === 10 && parseInstant(value) !== null,
      "must be a UTC day YYYY-MM-DD",
    ),
    v.description("Only this UTC day (`YYYY-MM-DD`)."),
  ),
  provider: v.pipe(oneOf(PROVIDERS), v.description("Only this provider.")),
  model: v.pipe(text, v.description("Only this model, as sent.")),
  model_tier: v.pipe(text, v.description("Only this model tier, as sent.")),
  billable_customer_id: v.pipe(text, v.description("Only this customer.")),
};

/** Groups in one `GET /usage/costs` answer (decisions.md, large reports). */
export const DEFAULT_GROUPS_PER_PAGE = 1_000;
export const MAX_GROUPS_PER_PAGE = 10_000;

export const COST_PARAMS = {
  ...RANGE_PARAMS,
  group_by: v.pipe(
    v.string("must be a string"),
    v.description(
      "Comma list of day, provider, model, model_tier, billable_customer_id, context.<declared dimension>.",
    ),
  ),
  format: v.pipe(
    oneOf(["json", "csv"] as const),
    v.description("`csv` answers text/csv with every group (no paging) and the total line."),
  ),
  limit: v.pipe(
    v.string("must be a string"),
    checkWithCode<string>(
      "invalid_value",
      (value) => /^\d{1,5}$/.test(value) && Number(value) >= 1 && Number(value) <= MAX_GROUPS_PER_PAGE,
      `must be a whole number from 1 to ${MAX_GROUPS_PER_PAGE}`,
    ),
    v.description(
      `Groups in one answer: default ${DEFAULT_GROUPS_PER_PAGE}, at most ${MAX_GROUPS_PER_PAGE}; \`totals\` cover every group.`,
    ),
  ),
  page_token: v.pipe(
    text,
    v.description("The `next_page_token` of the previous answer, with the same `group_by` and filters."),
  ),
  ...FILTER_PARAMS,
};

export const UNPRICED_PARAMS = { ...RANGE_PARAMS };
