import { CONTEXT_PREFIX, dimensionOf, type Parsed, rejectQuery } from "@usage-ingestion/reports";
import {
  checkWithCode,
  type FieldError,
  identifierBytes,
  oneOf,
  PROVIDERS,
  toFieldErrors,
} from "@usage-ingestion/shared";
import * as v from "valibot";
import { BUDGET_ID, type BudgetDocument } from "./budget.ts";

const text = v.pipe(v.string("must be a string"), v.minLength(1, "must not be empty"), identifierBytes);

/**
 * `GET /usage/budgets` and `client.budgets(filter)`: each filter keeps the budgets that apply to a call
 * with that value, those whose scope names it and those whose scope leaves the field open. So
 * `customer=acme&provider=openai` answers every budget an OpenAI call for acme counts towards.
 */
export const BUDGET_PARAMS = {
  id: v.pipe(
    v.string("must be a string"),
    checkWithCode<string>("invalid_format", (value) => BUDGET_ID.test(value), "must be a budget id"),
    v.description("Only the budget with this id."),
  ),
  customer: v.pipe(text, v.description("Budgets a call for this billable_customer_id counts towards.")),
  provider: v.pipe(oneOf(PROVIDERS), v.description("Budgets a call to this provider counts towards.")),
  model: v.pipe(text, v.description("Budgets a call to this model counts towards.")),
};

export interface BudgetFilter {
  id?: string;
  customer?: string;
  provider?: string;
  model?: string;
  /** Declared dimension -> value (`context.feature=chat`). */
  context: Record<string, string>;
}

/** The parameters of `GET /usage/budgets`: the known ones once each, `context.<declared dimension>`, nothing else. */
export function parseBudgetQuery(params: Record<string, unknown>, declared: readonly string[]): Parsed<BudgetFilter> {
  const errors: FieldError[] = [];
  const filter: BudgetFilter = { context: {} };
  for (const [name, value] of Object.entries(params)) {
    const dimension = dimensionOf(name);
    const schema = Object.hasOwn(BUDGET_PARAMS, name) ? BUDGET_PARAMS[name as keyof typeof BUDGET_PARAMS] : text;
    if (!Object.hasOwn(BUDGET_PARAMS, name) && dimension === null) {
      errors.push({ field: name, code: "invalid_value", message: `${name} is not a parameter of this route` });
    } else if (typeof value !== "string") {
      errors.push({ field: name, code: "invalid_type", message: `${name} must be given once, as text` });
    } else if (dimension !== null && !declared.includes(dimension)) {
      const list = declared.map((each) => CONTEXT_PREFIX + each).join(", ") || "none";
      errors.push({
        field: name,
        code: "invalid_value",
        message: `${name} is not a declared context dimension; declared: ${list}`,
      });
    } else {
      const result = v.safeParse(schema, value);
      if (!result.success) errors.push(...toFieldErrors(result.issues, { root: name }));
      else if (dimension !== null) filter.context[dimension] = value;
      else filter[name as Exclude<keyof BudgetFilter, "context">] = value;
    }
  }
  if (errors.length > 0) {
    return rejectQuery(errors);
  }
  return { ok: true, query: filter };
}

/** Whether a call with the filter's values counts towards the budget. */
export function budgetApplies(budget: BudgetDocument, filter: BudgetFilter): boolean {
  const { scope } = budget;
  const open = (field: string | undefined, wanted: string | undefined) =>
    wanted === undefined || field === undefined || field === wanted;
  if (filter.id !== undefined && budget.id !== filter.id) return false;
  if (!open(scope.customer, filter.customer) || !open(scope.provider, filter.provider)) return false;
  if (!open(scope.model, filter.model)) return false;
  if (scope.dimension === undefined) return true;
  const wanted = filter.context[scope.dimension.name];
  return wanted === undefined || wanted === scope.dimension.value;
}
