// Budgets: spending limits per period, their status and the events of their thresholds.

export * from "./budget.ts";
export * from "./budget-events.ts";
export * from "./budget-periods.ts";
export * from "./budget-query.ts";
export * from "./budget-source.ts";
export * from "./budget-spent.ts";
export * from "./budget-status.ts";
export * from "./budget-store.ts";
export * from "./evaluate-budgets.ts";
