import { type FieldError, toFieldErrors } from "@usage-ingestion/shared";
import * as v from "valibot";
import type { ReportPageTokens } from "./page-token.ts";
import { CONTEXT_PREFIX, dimensionOf, FIXED_FIELDS, isFixedField, type ReportField } from "./report-fields.ts";
import { COST_PARAMS, DEFAULT_GROUPS_PER_PAGE, parseInstant, UNPRICED_PARAMS } from "./report-params.ts";
import { DAY_MS, defaultRange, MAX_RANGE_DAYS, type TimeRange } from "./time-range.ts";

export interface CostQuery extends TimeRange {
  groupBy: ReportField[];
  /** Field -> the one value kept. */
  filters: Partial<Record<ReportField, string>>;
  /**
   * For callers in code (budgets), never from a request: per grouped field, the values to keep apart; the
   * field's other values are summed in one group (aggregate.ts, OTHER_VALUES).
   */
  only?: Partial<Record<ReportField, ReadonlySet<string>>>;
  format: "json" | "csv";
  /** Groups in the answer (every group for CSV), from the `offset`th. */
  limit: number;
  offset: number;
}

/**
 * A query read, or why not: every field error, and one message naming them all. The HTTP edge answers it
 * 400 `validation_error`; the command line prints the message.
 */
export type Parsed<T> = { ok: true; query: T } | { ok: false; errors: FieldError[]; message: string };

type Params = Record<string, unknown>;

const issue = (field: string, code: FieldError["code"], message: string): FieldError => ({ field, code, message });

const declaredText = (declared: readonly string[]) =>
  declared.length === 0
    ? "this organization declares no context dimensions (admin org dimensions set)"
    : `declared: ${declared.map((name) => CONTEXT_PREFIX + name).join(", ")}`;

/** Each known parameter once, each valid by its schema; unknown ones are refused so typos do not pass silently. */
function checkParams(params: Params, schemas: Record<string, v.GenericSchema>, declared: readonly string[]) {
  const errors: FieldError[] = [];
  for (const [name, value] of Object.entries(params)) {
    const dimension = dimensionOf(name);
    // Own keys only: `constructor` or `__proto__` is an unknown parameter, never Object's own property.
    const schema = Object.hasOwn(schemas, name)
      ? schemas[name]
      : dimension !== null && Object.hasOwn(schemas, "group_by")
        ? COST_PARAMS.model
        : undefined;
    if (!schema) {
      errors.push(issue(name, "invalid_value", `${name} is not a parameter of this route`));
    } else if (typeof value !== "string") {
      errors.push(issue(name, "invalid_type", `${name} must be given once, as text`));
    } else if (dimension !== null && !declared.includes(dimension)) {
      errors.push(
        issue(name, "invalid_value", `${name} is not a declared context dimension; ${declaredText(declared)}`),
      );
    } else {
      const result = v.safeParse(schema, value);
      if (!result.success) errors.push(...toFieldErrors(result.issues, { root: name }));
    }
  }
  return errors;
}

/**
 * The range rule of every report and listing, defined once: `from` before `to`, at most MAX_RANGE_DAYS
 * apart. Checked on the parameters and again on a page token's range.
 */
export function rangeIssue(range: TimeRange, field = "to"): FieldError | null {
  if (range.from.getTime() >= range.to.getTime()) {
    return issue(field, "invalid_value", "to must be later than from (the range is [from, to))");
  }
  if (range.to.getTime() - range.from.getTime() > MAX_RANGE_DAYS * DAY_MS) {
    return issue(field, "too_large", `to must be at most ${MAX_RANGE_DAYS} days after from`);
  }
  return null;
}

/** The range of the parameters (defaults filled in), its error added to `errors` when it breaks the rule. */
export function checkRange(params: Params, now: Date, errors: FieldError[]): TimeRange {
  const at = (name: string) => (typeof params[name] === "string" ? parseInstant(params[name]) : null) ?? undefined;
  const range = defaultRange(now, at("from"), at("to"));
  if (errors.some((error) => error.field === "from" || error.field === "to")) return range;
  const broken = rangeIssue(range);
  if (broken) errors.push(broken);
  return range;
}

function checkGroupBy(text: string | undefined, declared: readonly string[], errors: FieldError[]): ReportField[] {
  if (text === undefined || text === "") return [];
  const fields = text.split(",").map((field) => field.trim());
  for (const [index, field] of fields.entries()) {
    const dimension = dimensionOf(field);
    if (fields.indexOf(field) !== index) {
      errors.push(issue("group_by", "invalid_value", `group_by names ${field} twice`));
    } else if (dimension !== null && !declared.includes(dimension)) {
      errors.push(
        issue(
          "group_by",
          "invalid_value",
          `group_by ${field} is not a declared context dimension; ${declaredText(declared)}`,
        ),
      );
    } else if (dimension === null && !isFixedField(field)) {
      errors.push(
        issue(
          "group_by",
          "invalid_value",
          `group_by ${field || "(empty)"} must be one of: ${FIXED_FIELDS.join(", ")}, context.<declared dimension>`,
        ),
      );
    }
  }
  return fields as ReportField[];
}

export function rejectQuery(errors: FieldError[]): { ok: false; errors: FieldError[]; message: string } {
  return { ok: false, errors, message: `Invalid query: ${errors.map((e) => e.message).join("; ")}.` };
}

/** What reads a later page's token: the report's page tokens and the organization they were signed for. */
export interface CostPaging {
  tokens: ReportPageTokens;
  organizationId: string;
}

/** The cost report's parameters; `paging` reads `page_token` (without it, a page token is refused). */
export function parseCostQuery(
  params: Params,
  declared: readonly string[],
  now: Date,
  paging?: CostPaging,
): Parsed<CostQuery> {
  const errors = checkParams(params, COST_PARAMS, declared);
  const range = checkRange(params, now, errors);
  const groupBy = checkGroupBy(typeof params.group_by === "string" ? params.group_by : undefined, declared, errors);
  if (errors.length > 0) return rejectQuery(errors);
  const filters: CostQuery["filters"] = {};
  for (const [name, value] of Object.entries(params)) {
    if (isFixedField(name) || dimensionOf(name) !== null) filters[name as ReportField] = value as string;
  }
  const format = params.format === "csv" ? "csv" : "json";
  const limit = format === "csv" ? Number.POSITIVE_INFINITY : Number(params.limit ?? DEFAULT_GROUPS_PER_PAGE);
  if (typeof params.page_token !== "string") {
    return { ok: true, query: { ...range, groupBy, filters, format, limit, offset: 0 } };
  }
  // A later page keeps the first page's range, resolved: a default `to` (now) must not move under it.
  const page = paging ? paging.tokens.read(paging.organizationId, { groupBy, filters }, params.page_token) : null;
  const moved = (name: "from" | "to") =>
    page !== null && typeof params[name] === "string" && range[name].getTime() !== page[name].getTime();
  if (page === null || moved("from") || moved("to")) {
    const message = "page_token must be a next_page_token of this report, with the same group_by, filters and range";
    return rejectQuery([issue("page_token", "invalid_value", message)]);
  }
  // Signed by us, so it held when it was written; the rule is checked again all the same.
  const broken = rangeIssue(page, "page_token");
  if (broken) return rejectQuery([broken]);
  return { ok: true, query: { from: page.from, to: page.to, groupBy, filters, format, limit, offset: page.offset } };
}

export function parseRangeQuery(params: Params, now: Date): Parsed<TimeRange> {
  const errors = checkParams(params, UNPRICED_PARAMS, []);
  const range = checkRange(params, now, errors);
  return errors.length > 0 ? rejectQuery(errors) : { ok: true, query: range };
}
