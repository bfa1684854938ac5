// The worker's jobs: each one file and one function (infra/modules/worker), registered by ../index.ts and
// run by `npm start` from these same files. What tests and the local stack use of the worker is here.
import { deliverWebhooks } from "./deliver-webhooks.ts";
import { dispatchWebhooks } from "./dispatch-webhooks.ts";
import { evaluateBudgets } from "./evaluate-budgets.ts";
import { foldSummaries } from "./fold-summaries.ts";
import type { Job } from "./job.ts";
import { priceUsage } from "./price-usage.ts";
import { reconcileVendors } from "./reconcile-vendors.ts";

export { parseWorkerConfig, type WorkerConfig, WorkerEnvSchema } from "../env.ts";
export {
  BUDGETS_FUNCTION_NAME,
  FOLD_FUNCTION_NAME,
  FUNCTION_NAME,
  RECONCILE_FUNCTION_NAME,
  WEBHOOK_DELIVERY_FUNCTION_NAME,
  WEBHOOK_DISPATCH_FUNCTION_NAME,
} from "../function-name.ts";
export type { Job, PushJob, TickJob, TickSummary } from "./job.ts";
export { deliverWebhooks, dispatchWebhooks, evaluateBudgets, foldSummaries, priceUsage, reconcileVendors };

export const JOBS: readonly Job[] = [
  priceUsage,
  foldSummaries,
  evaluateBudgets,
  dispatchWebhooks,
  deliverWebhooks,
  reconcileVendors,
];
