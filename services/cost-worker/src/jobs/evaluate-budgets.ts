import { evaluateBudgets as evaluate } from "@usage-ingestion/budgets";
import { DEFAULT_REPORT_LIMITS } from "@usage-ingestion/reports";
import { integerVar, parseConfig } from "@usage-ingestion/shared/server";
import * as v from "valibot";
import { COMMON_ENV } from "./common-env.ts";
import { firestoreClient } from "./firestore-client.ts";
import type { TickJob } from "./job.ts";

export const EVALUATE_BUDGETS_ENV = {
  ...COMMON_ENV,
  /** Documents one organization's budget spent may read in one run, and its time. */
  BUDGETS_MAX_DOCUMENTS: integerVar(200_000),
  BUDGETS_TIMEOUT_MS: integerVar(30_000),
};
const EvaluateBudgetsEnvSchema = v.object(EVALUATE_BUDGETS_ENV);

/**
 * Each tick reads every budget's spent and creates the outbox event of each crossing, once. The events
 * this instance created or found are remembered across ticks, so it does not try them again.
 */
export const evaluateBudgets: TickJob<v.InferOutput<typeof EvaluateBudgetsEnvSchema>> = {
  name: "evaluateBudgets",
  trigger: "tick",
  config: (env) => parseConfig(EvaluateBudgetsEnvSchema, env),
  start(config) {
    const db = firestoreClient(config.GOOGLE_CLOUD_PROJECT, { useBigInt: true });
    const known = new Set<string>();
    return {
      async run() {
        const run = await evaluate(db, new Date(), {
          limits: {
            maxDocuments: config.BUDGETS_MAX_DOCUMENTS,
            timeoutMs: config.BUDGETS_TIMEOUT_MS,
            maxGroups: DEFAULT_REPORT_LIMITS.maxGroups,
          },
          known,
        });
        return {
          line: `evaluated ${run.budgets} budgets of ${run.organizations} organizations${run.created.length > 0 ? `; recorded events ${run.created.join(", ")}` : ""}`,
          fields: {
            budgets: run.budgets,
            organizations: run.organizations,
            events_created: run.created.length,
            created: run.created,
            failed: run.failed.length,
          },
          didWork: run.created.length > 0,
          problems: run.failed.map((failure) => ({
            severity: "ERROR" as const,
            line: `budgets of ${failure.organization_id} not evaluated: ${failure.error}`,
            fields: failure,
          })),
        };
      },
      close: () => db.terminate(),
    };
  },
};
