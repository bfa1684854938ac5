import {
  DEFAULT_VENDOR_HTTP,
  readAnthropic,
  readBedrock,
  readGemini,
  readOpenAi,
  reconcileTick,
  type VendorHttp,
  vendorHttp,
} from "@usage-ingestion/reconciliation";
import { firestoreReportSource } from "@usage-ingestion/reports";
import { baseUrlVar, integerVar, optionalStringVar, parseConfig } from "@usage-ingestion/shared/server";
import { parseSecretKey, secretBox } from "@usage-ingestion/webhooks";
import * as v from "valibot";
import { COMMON_ENV } from "./common-env.ts";
import { firestoreClient } from "./firestore-client.ts";
import type { TickJob } from "./job.ts";

export const RECONCILE_VENDORS_ENV = {
  ...COMMON_ENV,
  /** Each vendor's API address: a customer's proxy, or a test's stand-in, may stand in for it. */
  RECONCILE_OPENAI_BASE_URL: baseUrlVar("https://api.openai.com"),
  RECONCILE_ANTHROPIC_BASE_URL: baseUrlVar("https://api.anthropic.com"),
  /** BigQuery's API, where Google's billing export (the table a gemini connection names) is queried. */
  RECONCILE_BIGQUERY_ENDPOINT: baseUrlVar("https://bigquery.googleapis.com"),
  /** AWS Cost Explorer's API (us-east-1), where a bedrock connection's figures are read. */
  RECONCILE_AWS_ENDPOINT: baseUrlVar("https://ce.us-east-1.amazonaws.com"),
  /** Whole days each day's run reads again: the vendors restate recent days. */
  RECONCILE_LOOKBACK_DAYS: v.pipe(integerVar(7), v.maxValue(31, "must be at most 31")),
  /** One request to a vendor, its answer included. */
  RECONCILE_TIMEOUT_MS: integerVar(DEFAULT_VENDOR_HTTP.timeoutMs),
  /** The key that seals webhook secrets and the vendors' credentials (Secret Manager). */
  WEBHOOK_SECRET_KEY: optionalStringVar(),
};
const ReconcileVendorsEnvSchema = v.object(RECONCILE_VENDORS_ENV);

/**
 * Each tick queues the day's run of every connected organization (once a day) and takes up the queued
 * runs, those asked for through the API included: each connected vendor's own report over the run's days
 * beside ours, stored per vendor, day and model, and each day past the threshold alerted once. Without
 * WEBHOOK_SECRET_KEY no credential can be opened: the job says so and does nothing.
 */
export const reconcileVendors: TickJob<v.InferOutput<typeof ReconcileVendorsEnvSchema>> = {
  name: "reconcileVendors",
  trigger: "tick",
  config(env) {
    const config = parseConfig(ReconcileVendorsEnvSchema, env);
    if (config.WEBHOOK_SECRET_KEY !== undefined) parseSecretKey(config.WEBHOOK_SECRET_KEY);
    return config;
  },
  start(config) {
    const db = firestoreClient(config.GOOGLE_CLOUD_PROJECT, { useBigInt: true });
    const box =
      config.WEBHOOK_SECRET_KEY === undefined ? undefined : secretBox(parseSecretKey(config.WEBHOOK_SECRET_KEY));
    const http: VendorHttp = vendorHttp({ ...DEFAULT_VENDOR_HTTP, timeoutMs: config.RECONCILE_TIMEOUT_MS });
    return {
      async run() {
        if (!box) {
          return {
            line: "reconciliation skipped: WEBHOOK_SECRET_KEY is not set, so no vendor credential can be opened",
            fields: {},
            didWork: false,
            problems: [],
          };
        }
        const now = () => new Date();
        const tick = await reconcileTick(
          {
            db,
            box,
            reports: firestoreReportSource(db),
            readers: {
              openai: (credential, range) =>
                readOpenAi({ http, baseUrl: config.RECONCILE_OPENAI_BASE_URL, now: now() }, credential, range),
              anthropic: (credential, range) =>
                readAnthropic({ http, baseUrl: config.RECONCILE_ANTHROPIC_BASE_URL, now: now() }, credential, range),
              gemini: (table, range) =>
                readGemini(
                  {
                    http,
                    endpoint: config.RECONCILE_BIGQUERY_ENDPOINT,
                    ...(config.GOOGLE_CLOUD_PROJECT ? { jobProject: config.GOOGLE_CLOUD_PROJECT } : {}),
                    now: now(),
                  },
                  table,
                  range,
                ),
              bedrock: (credential, range) =>
                readBedrock({ http, endpoint: config.RECONCILE_AWS_ENDPOINT, now: now() }, credential, range),
            },
            now,
          },
          config.RECONCILE_LOOKBACK_DAYS,
        );
        const vendors = tick.done.flatMap((run) =>
          run.vendors.map((result) => ({ ...result, run_id: run.run_id, organization_id: run.organization_id })),
        );
        const alerted = vendors.reduce((sum, result) => sum + result.alerted.length, 0);
        return {
          line: `reconciliation: ${tick.done.length} runs (${tick.queued} queued today), ${vendors.length} vendor readings, ${alerted} days alerted`,
          fields: { runs: tick.done.length, queued: tick.queued, alerted },
          didWork: tick.done.length > 0,
          problems: [
            ...tick.done
              .filter((run) => run.error !== undefined)
              .map((run) => ({
                severity: "ERROR" as const,
                line: `reconciliation run ${run.run_id} of ${run.organization_id} failed: ${run.error}`,
                fields: { organization_id: run.organization_id, run_id: run.run_id },
              })),
            ...vendors
              .filter((result) => result.error !== null)
              .map((result) => ({
                severity: "WARNING" as const,
                line: `reconciliation of ${result.organization_id} with ${result.vendor} failed: ${result.error}`,
                fields: { organization_id: result.organization_id, vendor: result.vendor, run_id: result.run_id },
              })),
          ],
        };
      },
      close: () => db.terminate(),
    };
  },
};
