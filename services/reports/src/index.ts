// The report module: what `GET /usage/costs`, `GET /usage/unpriced`, the dashboard and `admin costs` read.
export type { CostFigures, CostGroup } from "./aggregate.ts";
export { BUDGET_PARAMS, type BudgetFilter, budgetApplies, parseBudgetQuery } from "./budget-query.ts";
export { type BudgetSource, budgetFromDocument, firestoreBudgetSource } from "./budget-source.ts";
export { budgetStatuses, spentRange } from "./budget-spent.ts";
export { type CostReport, costReport } from "./cost-report.ts";
export { costReportCsv } from "./csv.ts";
export { DIMENSION_NAME, dimensionListProblem, MAX_DIMENSIONS } from "./dimension-names.ts";
export {
  DEFAULT_REPORT_LIMITS,
  GroupPool,
  ReportBudget,
  type ReportLimits,
  ReportsBusy,
  ReportTooLarge,
  reportStopped,
  reportTooLarge,
} from "./report-budget.ts";
export { FIELD_ALIASES, type ReportField } from "./report-fields.ts";
export { COST_PARAMS, DEFAULT_GROUPS_PER_PAGE, MAX_GROUPS_PER_PAGE, UNPRICED_PARAMS } from "./report-params.ts";
export { type CostQuery, type Parsed, parseCostQuery, parseRangeQuery } from "./report-query.ts";
export { firestoreReportSource, type ReportSource } from "./report-source.ts";
export type { TimeRange } from "./time-range.ts";
export { type UnpricedEntry, type UnpricedReport, unpricedReport } from "./unpriced-report.ts";
