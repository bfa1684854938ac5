import type { TickJob } from "@usage-ingestion/cost-worker";
import { everyInterval } from "./every-interval.ts";

/**
 * A scheduled job of the worker, as Cloud Scheduler ticks it in Google Cloud: here every `intervalMs`, in
 * this process, from the job's own file and its own slice of `env`. A run that did something (and any
 * problem) is printed; quiet runs are not. The returned stop waits for a run under way and closes the job.
 */
export function everyTick(
  // biome-ignore lint/suspicious/noExplicitAny: any job's configuration; the job parses its own.
  job: TickJob<any>,
  env: Record<string, string | undefined>,
  intervalMs: number,
  print: (line: string) => void,
): () => Promise<void> {
  const started = job.start(job.config(env));
  const stop = everyInterval(
    async () => {
      const summary = await started.run();
      for (const problem of summary.problems) print(problem.line);
      if (summary.didWork) print(summary.line);
    },
    intervalMs,
    (error) => print(error.message.split("\n")[0] as string),
  );
  return async () => {
    await stop();
    await started.close();
  };
}
