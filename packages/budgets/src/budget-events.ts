import { amountNanos } from "./budget.ts";
import { compactInstant } from "./budget-periods.ts";
import type { BudgetStatus } from "./budget-status.ts";

/**
 * The event outbox: `organizations/{org}/events/{event_id}`. The evaluation step creates one document per
 * (budget, period, threshold) crossing and one per (budget, period) forecast over the amount, each with a
 * create precondition, so an alert exists once however many evaluators run; webhook delivery reads the
 * documents whose `dispatched_at` is null. The ids are deterministic for the same reason.
 */
export const BUDGET_EVENT_TYPES = ["budget.threshold_crossed", "budget.forecast_exceeded"] as const;
export type BudgetEventType = (typeof BUDGET_EVENT_TYPES)[number];

/** The `data` of both event types; `threshold_percent` on threshold events only, `forecast_usd` on forecast ones. */
export interface BudgetEventData {
  budget_id: string;
  budget_name: string | null;
  organization_id: string;
  scope: BudgetStatus["scope"];
  period: { start: string; end: string };
  amount_usd: string;
  spent_usd: string;
  percent: string;
  threshold_percent?: number;
  forecast_usd?: string;
}

export interface EventDocument {
  /** The document's own id. */
  id: string;
  type: BudgetEventType;
  created_at: string;
  data: BudgetEventData;
  /** Set by webhook delivery once the event is fanned out to the organization's webhooks. */
  dispatched_at: string | null;
}

const periodStart = (status: BudgetStatus) => compactInstant(new Date(status.current_period.start));

export const thresholdEventId = (status: BudgetStatus, threshold: number): string =>
  `${status.id}_${periodStart(status)}_t${threshold}`;

export const forecastEventId = (status: BudgetStatus): string => `${status.id}_${periodStart(status)}_forecast`;

const eventData = (organizationId: string, status: BudgetStatus): BudgetEventData => ({
  budget_id: status.id,
  budget_name: status.name,
  organization_id: organizationId,
  scope: status.scope,
  period: status.current_period,
  amount_usd: status.amount_usd,
  spent_usd: status.spent_usd,
  percent: status.percent,
});

/** The events a status calls for: each threshold crossed, and the forecast when it exceeds the amount. */
export function budgetEvents(organizationId: string, status: BudgetStatus, createdAt: string): EventDocument[] {
  const events: EventDocument[] = status.thresholds_crossed.map((threshold) => ({
    id: thresholdEventId(status, threshold),
    type: "budget.threshold_crossed",
    created_at: createdAt,
    data: { ...eventData(organizationId, status), threshold_percent: threshold },
    dispatched_at: null,
  }));
  if (status.forecast_usd !== null && amountNanos(status.forecast_usd) > amountNanos(status.amount_usd)) {
    events.push({
      id: forecastEventId(status),
      type: "budget.forecast_exceeded",
      created_at: createdAt,
      data: { ...eventData(organizationId, status), forecast_usd: status.forecast_usd },
      dispatched_at: null,
    });
  }
  return events;
}
