import { parseConfig } from "@usage-ingestion/shared/server";
import * as v from "valibot";
import { DELIVER_WEBHOOKS_ENV } from "./jobs/deliver-webhooks.ts";
import { DISPATCH_WEBHOOKS_ENV } from "./jobs/dispatch-webhooks.ts";
import { EVALUATE_BUDGETS_ENV } from "./jobs/evaluate-budgets.ts";
import { FOLD_SUMMARIES_ENV } from "./jobs/fold-summaries.ts";
import { PRICE_USAGE_ENV } from "./jobs/price-usage.ts";

/**
 * Every variable the worker's jobs read, each job its own slice: deployment sets these on every function
 * (infra tests hold the Terraform to this list), but the webhook secret key, a secret that only the
 * delivery function is given.
 */
const { WEBHOOK_SECRET_KEY: _secret, ...deliverWebhooksEnv } = DELIVER_WEBHOOKS_ENV;
export const WorkerEnvSchema = v.object({
  ...PRICE_USAGE_ENV,
  ...FOLD_SUMMARIES_ENV,
  ...EVALUATE_BUDGETS_ENV,
  ...DISPATCH_WEBHOOKS_ENV,
  ...deliverWebhooksEnv,
});

export type WorkerConfig = v.InferOutput<typeof WorkerEnvSchema>;

export const parseWorkerConfig = (env: Record<string, string | undefined>): WorkerConfig =>
  parseConfig(WorkerEnvSchema, env);
