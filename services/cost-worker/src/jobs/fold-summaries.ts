import { foldDue } from "@usage-ingestion/reports";
import { integerVar, parseConfig } from "@usage-ingestion/shared/server";
import * as v from "valibot";
import { COMMON_ENV } from "./common-env.ts";
import { firestoreClient } from "./firestore-client.ts";
import type { TickJob } from "./job.ts";

export const FOLD_SUMMARIES_ENV = {
  ...COMMON_ENV,
  /** Days and hours back kept folded into summaries, and days, hours and months folded in one run at most. */
  FOLD_LOOKBACK_DAYS: integerVar(35),
  FOLD_LOOKBACK_HOURS: integerVar(48),
  FOLD_MAX_PERIODS: integerVar(200),
};
const FoldSummariesEnvSchema = v.object(FOLD_SUMMARIES_ENV);

/**
 * Each tick folds what is due into day, hour and month summaries, and the open hour's partials
 * (docs/decisions/0015). Its client reads integers as BigInt: shard sums of nanos may pass 2^53.
 */
export const foldSummaries: TickJob<v.InferOutput<typeof FoldSummariesEnvSchema>> = {
  name: "foldSummaries",
  trigger: "tick",
  config: (env) => parseConfig(FoldSummariesEnvSchema, env),
  start(config) {
    const db = firestoreClient(config.GOOGLE_CLOUD_PROJECT, { useBigInt: true });
    return {
      async run() {
        const run = await foldDue(db, Date.now(), {
          lookbackDays: config.FOLD_LOOKBACK_DAYS,
          lookbackHours: config.FOLD_LOOKBACK_HOURS,
          maxFolds: config.FOLD_MAX_PERIODS,
        });
        return {
          line: `folded ${run.folded.length} days, hours and months and ${run.openHours.length} open hours of ${run.organizations} organizations`,
          fields: {
            folded: run.folded.length,
            open_hours: run.openHours.length,
            deferred: run.deferred,
            organizations: run.organizations,
          },
          didWork: run.folded.length > 0,
          problems: [],
        };
      },
      close: () => db.terminate(),
    };
  },
};
