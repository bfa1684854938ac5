import {
  checkWithCode,
  decimal,
  identifier,
  identifierBytes,
  isDecimalString,
  jsonObject,
  MAX_IDENTIFIER_BYTES,
  nanosToUsd,
  oneOf,
  PROVIDERS,
  toNanos,
} from "@usage-ingestion/shared";
import * as v from "valibot";

/**
 * A budget: an amount of USD an organization plans to spend on a scope over a period, and the percents
 * of it at which an alert is recorded. Stored at `organizations/{org}/budgets/{id}` (docs/budgets.md).
 */
export const CALENDAR_PERIODS = ["day", "week", "month"] as const;
export type CalendarPeriod = (typeof CALENDAR_PERIODS)[number];
/** A rolling window of the last N days, today included: `7d`. */
export type RollingPeriod = `${number}d`;
export type BudgetPeriod = CalendarPeriod | RollingPeriod;

/** The longest rolling window: its spent is one report over this many days. */
export const MAX_ROLLING_DAYS = 90;
export const DEFAULT_THRESHOLDS: readonly number[] = [50, 80, 100];
export const MAX_THRESHOLDS = 10;
export const MAX_THRESHOLD_PERCENT = 1000;
/** One billion dollars: the amount's nanos stay well inside a signed 64-bit integer. */
export const MAX_BUDGET_NANOS = 1_000_000_000n * 1_000_000_000n;
/** Budgets one organization may hold: every evaluation and every `GET /usage/budgets` reads them all. */
export const MAX_BUDGETS_PER_ORGANIZATION = 100;
export const MAX_BUDGET_NAME_LENGTH = 200;
/** Budget ids are part of event ids and document paths: letters, digits, `_` and `-`. */
export const BUDGET_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** An id a budget may have: Firestore reserves document ids of the form `__x__`. */
export const isBudgetId = (id: string) => BUDGET_ID.test(id) && !/^__.*__$/.test(id);

const ROLLING = /^([1-9]\d{0,2})d$/;

/** The days of a rolling window (`30d` -> 30), or null for a calendar period. */
export function rollingDays(period: BudgetPeriod): number | null {
  const match = ROLLING.exec(period);
  return match ? Number(match[1]) : null;
}

export function isBudgetPeriod(value: string): value is BudgetPeriod {
  if ((CALENDAR_PERIODS as readonly string[]).includes(value)) return true;
  const days = rollingDays(value as BudgetPeriod);
  return days !== null && days <= MAX_ROLLING_DAYS;
}

/** An IANA time zone name this runtime knows (`Europe/Paris`, `UTC`). */
export function isTimeZone(value: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+/-]{0,63}$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

const AMOUNT = /^\d{1,10}(?:\.\d{1,9})?$/;

/** A USD amount as exact nanos: a plain decimal with at most nine decimal places, above zero. */
export function amountNanos(text: string): bigint {
  return toNanos(decimal(text));
}

const amountUsd = v.pipe(
  v.string('must be a decimal string such as "250.00"'),
  checkWithCode<string>(
    "invalid_format",
    (text) => AMOUNT.test(text) && isDecimalString(text),
    'must be a decimal string of US dollars with at most 9 decimal places, such as "250.00"',
  ),
  checkWithCode<string>("too_small", (text) => !AMOUNT.test(text) || amountNanos(text) > 0n, "must be above zero"),
  checkWithCode<string>(
    "too_large",
    (text) => !AMOUNT.test(text) || amountNanos(text) <= MAX_BUDGET_NANOS,
    "must be at most 1000000000 (one billion dollars)",
  ),
);

const thresholdPercent = v.pipe(
  v.number("must be a whole percent"),
  v.integer("must be a whole percent"),
  v.minValue(1, "must be at least 1"),
  v.maxValue(MAX_THRESHOLD_PERCENT, `must be at most ${MAX_THRESHOLD_PERCENT}`),
);

export const BudgetScopeSchema = jsonObject(
  v.strictObject(
    {
      /** One `billable_customer_id`. */
      customer: v.optional(v.pipe(identifier, identifierBytes)),
      provider: v.optional(oneOf(PROVIDERS)),
      model: v.optional(v.pipe(identifier, identifierBytes)),
      /** One value of one declared context dimension: `{ name: "feature", value: "chat" }`. */
      dimension: v.optional(
        jsonObject(
          v.strictObject(
            {
              name: v.pipe(identifier, v.maxBytes(128, "must be at most 128 bytes in UTF-8")),
              value: v.pipe(
                identifier,
                v.maxBytes(MAX_IDENTIFIER_BYTES, `must be at most ${MAX_IDENTIFIER_BYTES} bytes`),
              ),
            },
            "must hold only name and value",
          ),
        ),
      ),
    },
    "must hold only customer, provider, model and dimension",
  ),
);
export type BudgetScope = v.InferOutput<typeof BudgetScopeSchema>;

const fields = {
  name: v.optional(
    v.nullable(
      v.pipe(
        v.string("must be a string"),
        v.maxLength(MAX_BUDGET_NAME_LENGTH, `must be at most ${MAX_BUDGET_NAME_LENGTH} characters`),
      ),
    ),
    null,
  ),
  scope: v.optional(BudgetScopeSchema, {}),
  amount_usd: amountUsd,
  period: v.pipe(
    v.string("must be a string"),
    checkWithCode<string>(
      "invalid_value",
      isBudgetPeriod,
      `must be day, week, month, or a rolling window Nd of 1 to ${MAX_ROLLING_DAYS} days (such as 30d)`,
    ),
  ),
  time_zone: v.optional(
    v.pipe(
      v.string("must be a string"),
      checkWithCode<string>("invalid_value", isTimeZone, "must be an IANA time zone name such as Europe/Paris or UTC"),
    ),
    "UTC",
  ),
  thresholds: v.optional(
    v.pipe(
      v.array(thresholdPercent, "must be a list of whole percents"),
      v.minLength(1, "must hold at least one percent"),
      v.maxLength(MAX_THRESHOLDS, `must hold at most ${MAX_THRESHOLDS} percents`),
      checkWithCode<number[]>(
        "invalid_value",
        (list) => new Set(list).size === list.length,
        "must not name a percent twice",
      ),
    ),
    () => [...DEFAULT_THRESHOLDS],
  ),
};

/** What `admin budget create` accepts; absent fields take their defaults (UTC, 50/80/100, no name). */
export const BudgetInputSchema = jsonObject(v.strictObject(fields, "holds an unknown field"));

/**
 * What `POST /v1/orgs/{org}/budgets` accepts: the same fields, and the `id` `admin budget create --id`
 * takes (a client that retries with its own id gets 409 rather than a second budget).
 */
export const BudgetCreateSchema = jsonObject(
  v.strictObject(
    {
      ...fields,
      id: v.optional(
        v.pipe(
          v.string("must be a string"),
          checkWithCode<string>("invalid_format", isBudgetId, "must be 1-64 letters, digits, _ or -"),
        ),
      ),
    },
    "holds an unknown field",
  ),
);
export type BudgetInput = v.InferInput<typeof BudgetInputSchema>;

/** What `admin budget update` accepts: any of the fields, each replacing the stored one. */
export const BudgetChangeSchema = jsonObject(
  v.strictObject(
    {
      name: v.optional(fields.name.wrapped),
      scope: v.optional(BudgetScopeSchema),
      amount_usd: v.optional(amountUsd),
      period: v.optional(fields.period),
      time_zone: v.optional(fields.time_zone.wrapped),
      thresholds: v.optional(fields.thresholds.wrapped),
    },
    "holds an unknown field",
  ),
);
export type BudgetChange = v.InferOutput<typeof BudgetChangeSchema>;

/** `organizations/{org}/budgets/{id}`. */
export interface BudgetDocument {
  id: string;
  name: string | null;
  scope: BudgetScope;
  /** Nine decimal places, exact: `"250.000000000"`. */
  amount_usd: string;
  period: BudgetPeriod;
  /** The IANA zone calendar periods (and a rolling window's days) are counted in. */
  time_zone: string;
  /** Ascending whole percents. */
  thresholds: number[];
  created_at: string;
  updated_at: string;
}

/** A validated input as the document stores it: the amount in its exact nine-place form, thresholds sorted. */
export function budgetDocument(
  id: string,
  input: v.InferOutput<typeof BudgetInputSchema>,
  createdAt: string,
  updatedAt = createdAt,
): BudgetDocument {
  return {
    id,
    name: input.name ?? null,
    scope: input.scope,
    amount_usd: nanosToUsd(amountNanos(input.amount_usd)),
    period: input.period as BudgetPeriod,
    time_zone: input.time_zone,
    thresholds: [...input.thresholds].sort((a, b) => a - b),
    created_at: createdAt,
    updated_at: updatedAt,
  };
}

/** The report fields a scope filters on, each with the value it keeps. */
export function scopeFilters(scope: BudgetScope): Record<string, string> {
  const filters: Record<string, string> = {};
  if (scope.customer !== undefined) filters.billable_customer_id = scope.customer;
  if (scope.provider !== undefined) filters.provider = scope.provider;
  if (scope.model !== undefined) filters.model = scope.model;
  if (scope.dimension !== undefined) filters[`context.${scope.dimension.name}`] = scope.dimension.value;
  return filters;
}
