import { toFieldErrors } from "@usage-ingestion/shared";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { BudgetChangeSchema, BudgetInputSchema, budgetDocument, isBudgetPeriod, scopeFilters } from "./budget.ts";

const errors = (input: unknown) => {
  const result = v.safeParse(BudgetInputSchema, input);
  return result.success ? [] : toFieldErrors(result.issues).map(({ field, code }) => ({ field, code }));
};

describe("BudgetInputSchema", () => {
  it("takes the defaults: the whole organization, UTC, 50/80/100", () => {
    const parsed = v.parse(BudgetInputSchema, { amount_usd: "250", period: "month" });
    expect(budgetDocument("b1", parsed, "2026-11-26T00:00:00.000Z")).toEqual({
      id: "b1",
      name: null,
      scope: {},
      amount_usd: "250.000000000",
      period: "month",
      time_zone: "UTC",
      thresholds: [50, 80, 100],
      created_at: "2026-11-26T00:00:00.000Z",
      updated_at: "2026-11-26T00:00:00.000Z",
    });
  });

  it("keeps a combined scope, a zone, and thresholds above 100, sorted", () => {
    const parsed = v.parse(BudgetInputSchema, {
      name: "Chat for acme",
      scope: { customer: "acme", provider: "openai", model: "gpt-4o", dimension: { name: "feature", value: "chat" } },
      amount_usd: "0.000000001",
      period: "30d",
      time_zone: "Europe/Paris",
      thresholds: [150, 25, 100],
    });
    const doc = budgetDocument("b2", parsed, "2026-11-26T00:00:00.000Z");
    expect(doc.thresholds).toEqual([25, 100, 150]);
    expect(doc.amount_usd).toBe("0.000000001");
    expect(scopeFilters(doc.scope)).toEqual({
      billable_customer_id: "acme",
      provider: "openai",
      model: "gpt-4o",
      "context.feature": "chat",
    });
  });

  it("refuses each bad field with its code", () => {
    expect(errors({ period: "month" })).toEqual([{ field: "amount_usd", code: "required" }]);
    expect(errors({ amount_usd: "1.0000000001", period: "month" })).toEqual([
      { field: "amount_usd", code: "invalid_format" },
    ]);
    expect(errors({ amount_usd: 5, period: "month" })).toEqual([{ field: "amount_usd", code: "invalid_type" }]);
    expect(errors({ amount_usd: "0", period: "month" })).toEqual([{ field: "amount_usd", code: "too_small" }]);
    expect(errors({ amount_usd: "1000000000.000000001", period: "month" })).toEqual([
      { field: "amount_usd", code: "too_large" },
    ]);
    expect(errors({ amount_usd: "1", period: "year" })).toEqual([{ field: "period", code: "invalid_value" }]);
    expect(errors({ amount_usd: "1", period: "91d" })).toEqual([{ field: "period", code: "invalid_value" }]);
    expect(errors({ amount_usd: "1", period: "day", time_zone: "Mars/Olympus" })).toEqual([
      { field: "time_zone", code: "invalid_value" },
    ]);
    expect(errors({ amount_usd: "1", period: "day", thresholds: [50, 50] })).toEqual([
      { field: "thresholds", code: "invalid_value" },
    ]);
    expect(errors({ amount_usd: "1", period: "day", thresholds: [0] })).toEqual([
      { field: "thresholds.0", code: "too_small" },
    ]);
    expect(errors({ amount_usd: "1", period: "day", thresholds: [12.5] })).toEqual([
      { field: "thresholds.0", code: "invalid_type" },
    ]);
    expect(errors({ amount_usd: "1", period: "day", thresholds: Array.from({ length: 11 }, (_, i) => i + 1) })).toEqual(
      [{ field: "thresholds", code: "too_large" }],
    );
    expect(errors({ amount_usd: "1", period: "day", scope: { provider: "acme" } })).toEqual([
      { field: "scope.provider", code: "invalid_value" },
    ]);
    expect(errors({ amount_usd: "1", period: "day", scope: { customer: "x".repeat(257) } })).toEqual([
      { field: "scope.customer", code: "too_large" },
    ]);
  });

  it("refuses unknown fields, so a typo never widens a scope", () => {
    expect(errors({ amount_usd: "1", period: "day", scope: { custmer: "acme" } }).map((e) => e.field)).toEqual([
      "scope.custmer",
    ]);
  });

  it("accepts a change of one field", () => {
    expect(v.safeParse(BudgetChangeSchema, { amount_usd: "9.5" }).success).toBe(true);
    expect(v.safeParse(BudgetChangeSchema, { thresholds: [] }).success).toBe(false);
  });
});

describe("isBudgetPeriod", () => {
  it("names calendar periods and rolling windows of 1 to 90 days", () => {
    expect(["day", "week", "month", "1d", "90d"].every(isBudgetPeriod)).toBe(true);
    expect(["0d", "91d", "07d", "d", "1w", "Day"].some(isBudgetPeriod)).toBe(false);
  });
});
