import type { BudgetStatus } from "@usage-ingestion/budgets";
import { type BudgetSource, budgetApplies, budgetStatuses, parseBudgetQuery } from "@usage-ingestion/budgets";
import type { ReportSource } from "@usage-ingestion/reports";
import { validationFailed } from "@usage-ingestion/shared";
import type { Request, Response } from "express";
import { locals, send } from "../http/send.ts";
import type { ReportCeilings } from "../limits/report-ceilings";

export interface BudgetsAnswer {
  as_of: string;
  budgets: BudgetStatus[];
}

/**
 * `GET /usage/budgets` (read keys): the organization's budgets that the filters apply to, each with its
 * current period, spent, remaining, percent, thresholds crossed and forecast. An organization holds at most
 * MAX_BUDGETS_PER_ORGANIZATION budgets, and their spent is read within the report ceilings (422 past them).
 */
export function usageBudgets(budgets: BudgetSource, source: ReportSource, now: () => Date, ceilings: ReportCeilings) {
  return async (req: Request, res: Response) => {
    const organizationId = locals(res).organizationId as string;
    const declared = await source.declaredDimensions(organizationId);
    const parsed = parseBudgetQuery(req.query as Record<string, unknown>, declared);
    if (!parsed.ok) return send(res, validationFailed(parsed.errors, parsed.message));
    const applying = (await budgets.list(organizationId)).filter((budget) => budgetApplies(budget, parsed.query));
    const at = now();
    const statuses = await budgetStatuses(source, organizationId, applying, at, ceilings());
    res.set("Cache-Control", "no-store");
    res.status(200).json({ as_of: at.toISOString(), budgets: statuses } satisfies BudgetsAnswer);
  };
}
