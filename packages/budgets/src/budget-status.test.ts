import { describe, expect, it } from "vitest";
import type { BudgetDocument } from "./budget.ts";
import { budgetEvents } from "./budget-events.ts";
import { periodBounds } from "./budget-periods.ts";
import { budgetStatus, forecastNanos, percentText } from "./budget-status.ts";

const NANOS = 1_000_000_000n;
const budget: BudgetDocument = {
  id: "b1",
  name: "Team",
  scope: { customer: "acme" },
  amount_usd: "100.000000000",
  period: "day",
  time_zone: "Europe/Paris",
  thresholds: [50, 80, 100, 150],
  created_at: "2026-10-01T00:00:00.000Z",
  updated_at: "2026-10-01T00:00:00.000Z",
};

describe("budget status", () => {
  it("rounds the percent half up to two places, exactly", () => {
    expect(percentText(1n, 3n)).toBe("33.33");
    expect(percentText(2n, 3n)).toBe("66.67");
    expect(percentText(0n, 3n)).toBe("0.00");
    expect(percentText(5n, 1n)).toBe("500.00");
    expect(percentText(1n, 20_000n)).toBe("0.01");
    expect(percentText(1n, 20_001n)).toBe("0.00");
  });

  it("reaches a threshold at exactly its share of the amount, not a nano before", () => {
    const at = new Date("2026-10-25T12:00:00Z");
    const bounds = periodBounds("day", "Europe/Paris", at);
    expect(budgetStatus(budget, bounds, 80n * NANOS - 1n, at).thresholds_crossed).toEqual([50]);
    const over = budgetStatus(budget, bounds, 80n * NANOS, at);
    expect(over.thresholds_crossed).toEqual([50, 80]);
    expect(over.remaining_usd).toBe("20.000000000");
    expect(budgetStatus(budget, bounds, 150n * NANOS, at).remaining_usd).toBe("-50.000000000");
  });

  it("forecasts linearly over the period's real length, and not in its first tenth", () => {
    // The Paris day of 2026-10-25 lasts 25 hours and starts at 22:00 UTC the day before.
    const bounds = periodBounds("day", "Europe/Paris", new Date("2026-10-25T12:00:00Z"));
    const fiveHoursIn = new Date("2026-10-25T03:00:00Z");
    expect(forecastNanos(10n * NANOS, bounds, fiveHoursIn)).toBe(50n * NANOS);
    expect(forecastNanos(10n * NANOS, bounds, new Date("2026-10-25T00:00:00Z"))).toBeNull();
  });

  it("calls for one event per threshold crossed and one for a forecast over the amount", () => {
    const at = new Date("2026-10-25T03:00:00Z");
    const status = budgetStatus(budget, periodBounds("day", "Europe/Paris", at), 55n * NANOS, at);
    const events = budgetEvents("org1", status, at.toISOString());
    expect(events.map((event) => [event.id, event.type])).toEqual([
      ["b1_20261024T220000Z_t50", "budget.threshold_crossed"],
      ["b1_20261024T220000Z_forecast", "budget.forecast_exceeded"],
    ]);
    expect(events[0]?.data).toEqual({
      budget_id: "b1",
      budget_name: "Team",
      organization_id: "org1",
      scope: { customer: "acme" },
      period: { start: "2026-10-24T22:00:00.000Z", end: "2026-10-25T23:00:00.000Z" },
      amount_usd: "100.000000000",
      spent_usd: "55.000000000",
      percent: "55.00",
      threshold_percent: 50,
    });
    expect(events[1]?.data.forecast_usd).toBe("275.000000000");
    expect(events[1]?.dispatched_at).toBeNull();
  });
});
