import { deliverWebhooks } from "./jobs/deliver-webhooks.ts";
import { dispatchWebhooks } from "./jobs/dispatch-webhooks.ts";
import { evaluateBudgets } from "./jobs/evaluate-budgets.ts";
import { foldSummaries } from "./jobs/fold-summaries.ts";
import { priceUsage } from "./jobs/price-usage.ts";
import { reconcileVendors } from "./jobs/reconcile-vendors.ts";

/** The names the worker's functions register under; deployment and the local stack target them. */
export const FUNCTION_NAME = priceUsage.name;
export const FOLD_FUNCTION_NAME = foldSummaries.name;
export const BUDGETS_FUNCTION_NAME = evaluateBudgets.name;
export const WEBHOOK_DISPATCH_FUNCTION_NAME = dispatchWebhooks.name;
export const WEBHOOK_DELIVERY_FUNCTION_NAME = deliverWebhooks.name;
export const RECONCILE_FUNCTION_NAME = reconcileVendors.name;
