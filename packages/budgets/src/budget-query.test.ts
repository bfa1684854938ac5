import { describe, expect, it } from "vitest";
import type { BudgetDocument, BudgetScope } from "./budget.ts";
import { budgetApplies, parseBudgetQuery } from "./budget-query.ts";
import { spentRange } from "./budget-spent.ts";

const budget = (id: string, scope: BudgetScope): BudgetDocument => ({
  id,
  name: null,
  scope,
  amount_usd: "1.000000000",
  period: "day",
  time_zone: "UTC",
  thresholds: [100],
  created_at: "2026-01-01T00:00:00.000Z",
  updated_at: "2026-01-01T00:00:00.000Z",
});

const budgets = [
  budget("org", {}),
  budget("acme", { customer: "acme" }),
  budget("acme-chat", { customer: "acme", dimension: { name: "feature", value: "chat" } }),
  budget("openai", { provider: "openai" }),
];

const applying = (params: Record<string, string>) => {
  const parsed = parseBudgetQuery(params, ["feature"]);
  if (!parsed.ok) throw new Error(parsed.message);
  return budgets.filter((each) => budgetApplies(each, parsed.query)).map((each) => each.id);
};

describe("budget filters", () => {
  it("keep the budgets a call with these values counts towards: named or left open", () => {
    expect(applying({})).toEqual(["org", "acme", "acme-chat", "openai"]);
    expect(applying({ customer: "acme" })).toEqual(["org", "acme", "acme-chat", "openai"]);
    expect(applying({ customer: "globex" })).toEqual(["org", "openai"]);
    expect(applying({ customer: "acme", "context.feature": "search", provider: "anthropic" })).toEqual(["org", "acme"]);
    expect(applying({ id: "acme-chat" })).toEqual(["acme-chat"]);
  });

  it("refuse unknown parameters and undeclared dimensions, naming them", () => {
    const fields = (params: Record<string, unknown>) => {
      const parsed = parseBudgetQuery(params, ["feature"]);
      return parsed.ok ? [] : parsed.errors.map(({ field, code }) => `${field}:${code}`);
    };
    expect(fields({ colour: "red" })).toEqual(["colour:invalid_value"]);
    expect(fields({ "context.team": "red" })).toEqual(["context.team:invalid_value"]);
    expect(fields({ customer: ["a", "b"] })).toEqual(["customer:invalid_type"]);
    expect(fields({ customer: "" })).toEqual(["customer:too_small"]);
    expect(fields({ constructor: "x" })).toEqual(["constructor:invalid_value"]);
  });
});

describe("spentRange", () => {
  const bounds = { start: new Date("2026-10-01T00:00:00Z"), end: new Date("2026-11-01T00:00:00Z") };
  it("reads to the end of today's UTC day inside the period, so today comes from its shards", () => {
    expect(spentRange(bounds, new Date("2026-10-25T15:00:00Z")).to.toISOString()).toBe("2026-10-26T00:00:00.000Z");
    expect(spentRange(bounds, new Date("2026-10-25T00:00:00Z")).to.toISOString()).toBe("2026-10-26T00:00:00.000Z");
  });
  it("stops at a period that ends inside today", () => {
    const paris = { start: new Date("2026-10-24T22:00:00Z"), end: new Date("2026-10-25T23:00:00Z") };
    expect(spentRange(paris, new Date("2026-10-25T22:30:00Z")).to.toISOString()).toBe("2026-10-25T23:00:00.000Z");
  });
});
