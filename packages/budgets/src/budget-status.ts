import { nanosToUsd } from "@usage-ingestion/shared";
import { amountNanos, type BudgetDocument, type BudgetPeriod, type BudgetScope } from "./budget.ts";
import type { PeriodBounds } from "./budget-periods.ts";

/**
 * A budget as of one instant: what `GET /usage/budgets` answers for each budget, what the client reads
 * and what the evaluation step decides alerts from. Money as exact decimal strings.
 */
export interface BudgetStatus {
  id: string;
  name: string | null;
  scope: BudgetScope;
  amount_usd: string;
  period: BudgetPeriod;
  time_zone: string;
  thresholds: number[];
  /** The current period, ISO 8601 instants: [start, end). */
  current_period: { start: string; end: string };
  spent_usd: string;
  /** `amount_usd - spent_usd`: negative once the budget is overspent. */
  remaining_usd: string;
  /** Spent as a percent of the amount, two decimal places, half up: `"82.35"`. */
  percent: string;
  /** The thresholds the spent has reached in this period (`spent >= amount x percent / 100`), ascending. */
  thresholds_crossed: number[];
  /**
   * Spent so far carried on linearly to the period's end; null in the first tenth of the period, when
   * there is too little of it to carry on (docs/budgets.md).
   */
  forecast_usd: string | null;
  /** The instant the figures are as of. */
  as_of: string;
}

/** Too little of a period has passed to carry its spend on before this fraction of it (a tenth). */
export const FORECAST_AFTER_FRACTION = 0.1;

/** `part / whole` in percent, two decimal places, half up, exactly. */
export function percentText(part: bigint, whole: bigint): string {
  const hundredths = (part * 10_000n * 2n + whole) / (whole * 2n);
  const text = hundredths.toString().padStart(3, "0");
  return `${text.slice(0, -2)}.${text.slice(-2)}`;
}

/** Whether `spent` has reached `percent` of `amount`, exactly (no rounding). */
export const reached = (spent: bigint, amount: bigint, percent: number): boolean =>
  spent * 100n >= amount * BigInt(percent);

/**
 * The spend at the period's end if it goes on as it went so far: `spent x length / elapsed`, in whole
 * nanos, half up. Null before FORECAST_AFTER_FRACTION of the period has passed.
 */
export function forecastNanos(spent: bigint, bounds: PeriodBounds, at: Date): bigint | null {
  const length = BigInt(bounds.end.getTime() - bounds.start.getTime());
  const elapsed = BigInt(Math.min(at.getTime(), bounds.end.getTime()) - bounds.start.getTime());
  if (elapsed <= 0n || Number(elapsed) < Number(length) * FORECAST_AFTER_FRACTION) return null;
  return (spent * length * 2n + elapsed) / (elapsed * 2n);
}

/** A budget's status from its spent (nanos) in its current period. */
export function budgetStatus(budget: BudgetDocument, bounds: PeriodBounds, spent: bigint, at: Date): BudgetStatus {
  const amount = amountNanos(budget.amount_usd);
  const forecast = forecastNanos(spent, bounds, at);
  return {
    id: budget.id,
    name: budget.name,
    scope: budget.scope,
    amount_usd: budget.amount_usd,
    period: budget.period,
    time_zone: budget.time_zone,
    thresholds: budget.thresholds,
    current_period: { start: bounds.start.toISOString(), end: bounds.end.toISOString() },
    spent_usd: nanosToUsd(spent),
    remaining_usd: nanosToUsd(amount - spent),
    percent: percentText(spent, amount),
    thresholds_crossed: budget.thresholds.filter((percent) => reached(spent, amount, percent)),
    forecast_usd: forecast === null ? null : nanosToUsd(forecast),
    as_of: at.toISOString(),
  };
}
