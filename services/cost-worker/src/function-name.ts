/** The name the worker registers under; deployment and the local stack target it. */
export const FUNCTION_NAME = "priceUsage";

/** The fold step's function (src/fold): a scheduled tick folds the days that are due into summaries. */
export const FOLD_FUNCTION_NAME = "foldSummaries";

/** The webhook delivery function: one push per delivery from the deliveries topic; POSTs it, signed. */
export const WEBHOOK_DELIVERY_FUNCTION_NAME = "deliverWebhooks";

/** The webhook dispatch step: a scheduled tick fans new budget events out into deliveries and sweeps. */
export const WEBHOOK_DISPATCH_FUNCTION_NAME = "dispatchWebhooks";

/** The budget evaluation step (src/budgets): a scheduled tick records each threshold crossing once. */
export const BUDGETS_FUNCTION_NAME = "evaluateBudgets";
