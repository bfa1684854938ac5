import type { PubSubEvent } from "@usage-ingestion/shared/server";

/** What a tick's run did, for whoever hosts it to log: the functions framework, or the local stack. */
export interface TickSummary {
  /** One line saying what the run did. */
  line: string;
  fields: Record<string, unknown>;
  /** Whether it did anything (the local stack prints only those runs). */
  didWork: boolean;
  /** What went wrong without stopping the run (logged at their severity; tried again next run). */
  problems: Array<{ severity: "WARNING" | "ERROR"; line: string; fields: Record<string, unknown> }>;
}

/**
 * One of the worker's jobs, deployed as a Cloud Run function of its own from this same code
 * (infra/modules/worker) and run by `npm start` from this same file. A job reads only its own slice of
 * the configuration, parsed at start-up (a bad value stops the process, naming the variable), and makes
 * its own clients when started, on its first call, so that one function never opens another's.
 */
interface JobOf<Config, Trigger extends "push" | "tick", Running> {
  /** The function's name: deployment and the local stack target it. */
  readonly name: string;
  /** `push`: one Pub/Sub push per call. `tick`: one Cloud Scheduler tick per call, through a tick topic. */
  readonly trigger: Trigger;
  config(env: Record<string, string | undefined>): Config;
  start(config: Config): Running & { close(): Promise<void> };
}

export type PushJob<Config> = JobOf<Config, "push", { run(event: PubSubEvent): Promise<void> }>;
export type TickJob<Config> = JobOf<Config, "tick", { run(): Promise<TickSummary> }>;
// biome-ignore lint/suspicious/noExplicitAny: a list of jobs holds each with a configuration of its own.
export type Job = PushJob<any> | TickJob<any>;
