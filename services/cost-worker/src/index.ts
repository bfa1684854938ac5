import * as functions from "@google-cloud/functions-framework";
import type { PubSubEvent } from "@usage-ingestion/shared/server";
import { createLogger } from "@usage-ingestion/shared/server";
import { JOBS } from "./jobs/index.ts";
import { outsideDomain } from "./outside-domain.ts";

/**
 * The worker's entry: each job registered with the functions framework by its name. Every job's slice of
 * the configuration is parsed here, at start-up; its clients are made on its first call, so a function
 * opens only its own job's.
 */
for (const job of JOBS) {
  const config = job.config(process.env);
  if (job.trigger === "push") {
    let started: ReturnType<typeof job.start> | undefined;
    functions.cloudEvent(job.name, (event: functions.CloudEvent<PubSubEvent["data"]>) =>
      outsideDomain(() => {
        started ??= job.start(config);
        return started.run(event as PubSubEvent);
      }),
    );
  } else {
    const logger = createLogger(config.LOG_FORMAT, config.GOOGLE_CLOUD_PROJECT);
    let started: ReturnType<typeof job.start> | undefined;
    functions.cloudEvent(job.name, () =>
      outsideDomain(async () => {
        started ??= job.start(config);
        const summary = await started.run();
        for (const problem of summary.problems) logger.log(problem.severity, problem.line, problem.fields);
        logger.log("INFO", summary.line, summary.fields);
      }),
    );
  }
}
