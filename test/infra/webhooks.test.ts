import {
  parseWorkerConfig,
  WEBHOOK_DELIVERY_FUNCTION_NAME,
  WEBHOOK_DISPATCH_FUNCTION_NAME,
} from "@usage-ingestion/cost-worker";
import { DAY_MS, DEFAULT_DELIVERIES_TOPIC, DEFAULT_DELIVERY_TIMING } from "@usage-ingestion/webhooks";
import { beforeAll, describe, expect, it } from "vitest";
import { type Hcl, infraQuery, parseInfra, tf } from "./hcl.ts";

// The webhook delivery on Google Cloud, offline on the parsed Terraform (infra/modules/worker/webhooks.tf):
// the deliveries topic, its push subscription's retry and dead-letter policies, the secret key from Secret
// Manager, retries that span at least a day, by the arithmetic of docs/webhooks.md, and the dispatch's
// instance of modules/scheduled-function.
let files = new Map<string, Hcl>();
const query = () => infraQuery(files);
const resource = (type: string, name: string) => query().resource("worker", type, name);
const variableDefault = (name: string) => query().variable("modules/worker", name).default;
const seconds = (duration: string) => Number(/^(\d+)s$/.exec(duration)?.[1]);

beforeAll(async () => {
  files = await parseInfra();
});

describe("webhook delivery (Terraform)", () => {
  it("queues deliveries on the topic the code names, pushed to the delivery function by the pusher alone", () => {
    expect(query().local("modules/worker", "webhook_deliveries_topic")).toBe(DEFAULT_DELIVERIES_TOPIC);
    expect(parseWorkerConfig({}).WEBHOOK_DELIVERIES_TOPIC).toBe(DEFAULT_DELIVERIES_TOPIC);
    expect(resource("google_pubsub_topic", "webhook_deliveries").name).toBe(tf("local.webhook_deliveries_topic"));
    const push = resource("google_pubsub_subscription", "webhook_deliveries");
    expect(push.topic).toBe(tf("google_pubsub_topic.webhook_deliveries.id"));
    expect(push.push_config[0].push_endpoint).toBe(
      tf("google_cloudfunctions2_function.webhooks.service_config[0].uri"),
    );
    expect(push.push_config[0].oidc_token[0].service_account_email).toBe(tf("var.pusher_service_account_email"));
    const fn = resource("google_cloudfunctions2_function", "webhooks");
    expect(fn.name).toBe("usage-webhooks");
    expect(fn.build_config[0].entry_point).toBe(WEBHOOK_DELIVERY_FUNCTION_NAME);
    expect(fn.service_config[0].ingress_settings).toBe("ALLOW_INTERNAL_ONLY");
    expect(fn.service_config[0].environment_variables).toBe(tf("local.environment"));
    expect(resource("google_cloud_run_service_iam_member", "pusher_invokes_webhooks").member).toBe(
      `serviceAccount:${tf("var.pusher_service_account_email")}`,
    );
    // The reports gateway queues replays there (management API), on the topic the worker names.
    expect(resource("google_pubsub_topic_iam_member", "reports_queues_replays")).toMatchObject({
      topic: tf("google_pubsub_topic.webhook_deliveries.id"),
      role: "roles/pubsub.publisher",
      member: `serviceAccount:${tf("var.reports_service_account_email")}`,
    });
    expect(query().exampleModule("reports").webhook_deliveries_topic).toBe(
      tf("module.worker.webhook_deliveries_topic"),
    );
    expect(query().output("modules/worker", "webhook_deliveries_topic").value).toBe(
      tf("google_pubsub_topic.webhook_deliveries.name"),
    );
    expect(query().local("modules/gateway", "environment").WEBHOOK_DELIVERIES_TOPIC).toBe(
      tf("var.webhook_deliveries_topic"),
    );
    expect(query().variable("modules/gateway", "webhook_deliveries_topic").default).toBe(DEFAULT_DELIVERIES_TOPIC);
    // The dispatch and the sweep may publish deliveries.
    expect(resource("google_pubsub_topic_iam_member", "worker_queues_deliveries")).toMatchObject({
      role: "roles/pubsub.publisher",
      member: `serviceAccount:${tf("var.service_account_email")}`,
    });
  });

  it("retries with exponential backoff and dead-letters after Pub/Sub's most attempts", () => {
    const push = resource("google_pubsub_subscription", "webhook_deliveries");
    expect(push.retry_policy[0]).toEqual({
      minimum_backoff: tf("var.webhook_minimum_backoff"),
      maximum_backoff: tf("var.webhook_maximum_backoff"),
    });
    expect(push.dead_letter_policy[0]).toEqual({
      dead_letter_topic: tf("google_pubsub_topic.webhook_dead_letter.id"),
      max_delivery_attempts: tf("var.webhook_max_delivery_attempts"),
    });
    expect(variableDefault("webhook_max_delivery_attempts")).toBe(100);
    expect(resource("google_pubsub_subscription", "webhook_dead_letter_hold").topic).toBe(
      tf("google_pubsub_topic.webhook_dead_letter.id"),
    );
    expect(resource("google_pubsub_topic_iam_member", "agent_publishes_webhook_dead_letters").member).toBe(
      tf("var.pubsub_service_agent"),
    );
    expect(resource("google_pubsub_subscription_iam_member", "agent_acks_webhook_deliveries").role).toBe(
      "roles/pubsub.subscriber",
    );
  });

  it("keeps retrying for at least a day: Pub/Sub's attempts, then the sweep until the window closes", () => {
    const [minimum, maximum] = [
      seconds(variableDefault("webhook_minimum_backoff")),
      seconds(variableDefault("webhook_maximum_backoff")),
    ];
    // Pub/Sub's backoff doubles from the minimum up to the maximum: the time its attempts span at most.
    let spanned = 0;
    for (let attempt = 1, wait = minimum; attempt < variableDefault("webhook_max_delivery_attempts"); attempt++) {
      spanned += wait;
      wait = Math.min(wait * 2, maximum);
    }
    expect(spanned).toBe(630 + 93 * 600);
    expect(spanned * 1000).toBeLessThan(DAY_MS); // hence the sweep
    const sweepAfterMs = variableDefault("webhook_sweep_after_ms");
    const timeoutMs = variableDefault("webhook_timeout_ms");
    // The sweep never queues again a delivery Pub/Sub is still retrying: its waits and a POST are shorter.
    expect(sweepAfterMs).toBeGreaterThan(maximum * 1000 + timeoutMs);
    expect(sweepAfterMs).toBe(DEFAULT_DELIVERY_TIMING.sweepAfterMs);
    expect(variableDefault("webhook_retry_window_ms")).toBeGreaterThanOrEqual(DAY_MS);
    expect(() => parseWorkerConfig({ WEBHOOK_RETRY_WINDOW_MS: String(DAY_MS - 1) })).toThrow(/WEBHOOK_RETRY_WINDOW_MS/);
    const environment = query().local("modules/worker", "environment");
    expect(environment).toMatchObject({
      WEBHOOK_RETRY_WINDOW_MS: tf("tostring(var.webhook_retry_window_ms)"),
      WEBHOOK_SWEEP_AFTER_MS: tf("tostring(var.webhook_sweep_after_ms)"),
    });
  });

  it("gives the key from Secret Manager to the delivery function and the reports gateway alone", () => {
    const secret = resource("google_secret_manager_secret", "webhook_secret_key");
    expect(secret.secret_id).toBe("usage-webhook-secret-key");
    const fn = resource("google_cloudfunctions2_function", "webhooks");
    expect(fn.service_config[0].secret_environment_variables[0]).toMatchObject({
      key: "WEBHOOK_SECRET_KEY",
      secret: tf("google_secret_manager_secret.webhook_secret_key.secret_id"),
      version: "latest",
    });
    expect(resource("google_secret_manager_secret_iam_member", "worker_reads_webhook_key")).toMatchObject({
      role: "roles/secretmanager.secretAccessor",
      member: `serviceAccount:${tf("var.service_account_email")}`,
    });
    // The reports gateway's management API seals the secrets of the webhooks it creates with the same key.
    expect(resource("google_secret_manager_secret_iam_member", "reports_reads_webhook_key")).toMatchObject({
      secret_id: tf("google_secret_manager_secret.webhook_secret_key.secret_id"),
      role: "roles/secretmanager.secretAccessor",
      member: `serviceAccount:${tf("var.reports_service_account_email")}`,
    });
    expect(query().exampleModule("worker").reports_service_account_email).toBe(tf("module.iam.reports_email"));
    const reports = query().exampleModule("reports");
    expect(reports.webhook_secret_key_secret).toBe(tf("module.worker.webhook_secret_key_secret"));
    // Named through the grant, so the reports gateway starts only once it may read the key.
    expect(query().output("modules/worker", "webhook_secret_key_secret").value).toBe(
      tf("google_secret_manager_secret_iam_member.reports_reads_webhook_key.secret_id"),
    );
    expect(query().exampleModule("gateway").webhook_secret_key_secret).toBeUndefined();
    // Not a plain variable: no key in the environment map, or anywhere else in the Terraform.
    expect(Object.keys(query().local("modules/worker", "environment"))).not.toContain("WEBHOOK_SECRET_KEY");
    expect(JSON.stringify([...files.values()])).not.toMatch(/google_secret_manager_secret_version/);
  });

  it("dispatches every minute, Cloud Scheduler through Pub/Sub to the dispatch function, without the key", () => {
    const dispatch = query().moduleCall("worker", "webhook_dispatch");
    expect(dispatch.source).toBe("../scheduled-function");
    expect(dispatch.name).toBe("usage-webhook-dispatch");
    expect(dispatch.entry_point).toBe(WEBHOOK_DISPATCH_FUNCTION_NAME);
    expect(dispatch.schedule).toBe("* * * * *");
    expect(dispatch.ticks_topic).toBe("usage-webhook-dispatch-ticks");
    expect(dispatch.environment_variables).toBe(tf("local.environment"));
    // The dispatch queues deliveries and signs nothing: the scheduled-function module passes no secret.
    const fn = query().resource("scheduled-function", "google_cloudfunctions2_function", "this");
    expect(fn.service_config[0].max_instance_count).toBe(1);
    expect(fn.service_config[0].secret_environment_variables).toBeUndefined();
    expect(
      query().resource("scheduled-function", "google_cloud_scheduler_job", "this").pubsub_target[0].topic_name,
    ).toBe(tf("google_pubsub_topic.ticks.id"));
    expect(
      query().resource("scheduled-function", "google_pubsub_subscription", "ticks").push_config[0].push_endpoint,
    ).toBe(tf("google_cloudfunctions2_function.this.service_config[0].uri"));
  });

  it("indexes the two collection groups the dispatch and the sweep read", () => {
    const field = query().resource("firestore", "google_firestore_field", "collection_group_scans");
    expect(field.for_each).toMatchObject({ events: "dispatched_at", webhook_deliveries: "sweep_at" });
    expect(field.index_config[0].indexes).toContainEqual({ order: "ASCENDING", query_scope: "COLLECTION_GROUP" });
  });
});

describe("reconciliation's collection groups", () => {
  it("are indexed: the active connections and the queued runs the job reads", () => {
    const field = query().resource("firestore", "google_firestore_field", "collection_group_scans");
    expect(field.for_each).toMatchObject({ connections: "status", reconciliation_runs: "state" });
  });
});
