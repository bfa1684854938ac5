import { execFileSync, spawnSync } from "node:child_process";
import {
  BUDGETS_FUNCTION_NAME,
  FOLD_FUNCTION_NAME,
  FUNCTION_NAME,
  WorkerEnvSchema,
} from "@usage-ingestion/cost-worker";
import { GatewayEnvSchema, parseGatewayConfig } from "@usage-ingestion/gateway";
import { beforeAll, describe, expect, it } from "vitest";
import { defaultTopologyNames } from "../../scripts/lib/topology.ts";
import { type Hcl, INFRA, infraQuery, parseInfra, tf } from "./hcl.ts";

// Offline checks of infra/: formatting, and the Terraform held against the code it deploys.

/** A Terraform interpolation as hcl2json renders it: `tf("var.x")` is the text "${var.x}". */

let files = new Map<string, Hcl>();
const inModule = (module: string) =>
  [...files.entries()].filter(([path]) => path.startsWith(`modules/${module}/`)).map(([, hcl]) => hcl);
const resource = (module: string, type: string, name: string): Hcl => {
  const found = inModule(module).find((hcl) => hcl.resource?.[type]?.[name]);
  if (!found) throw new Error(`no ${type}.${name} in modules/${module}`);
  return found.resource[type][name][0];
};
const moduleCall = (module: string, name: string) => infraQuery(files).moduleCall(module, name);
const variableDefault = (module: string, name: string) =>
  inModule(module).find((hcl) => hcl.variable?.[name])?.variable[name][0].default;

beforeAll(async () => {
  files = await parseInfra();
});

describe("infra (Terraform)", () => {
  it("is formatted (terraform fmt -check)", (context) => {
    const found = spawnSync("terraform", ["version"], { encoding: "utf8" });
    if (found.error) {
      console.warn("terraform is not on the PATH: the formatting check of infra/ did NOT run");
      context.skip();
    }
    expect(() => execFileSync("terraform", ["fmt", "-check", "-recursive", INFRA], { stdio: "pipe" })).not.toThrow();
  });

  it("parses every file", () => {
    expect(files.size).toBeGreaterThan(10);
  });

  it("sets every gateway configuration variable on the Cloud Run service (PORT is Cloud Run's own)", () => {
    const container = resource("gateway", "google_cloud_run_v2_service", "gateway").template[0].containers[0];
    expect(container.dynamic.env[0].for_each).toBe(tf("local.environment"));
    // Sign-in's variables, all or none (with var.sign_in), the two secrets from Secret Manager.
    expect(container.dynamic.env[1].for_each).toBe(tf("var.sign_in == null ? {} : local.sign_in_environment"));
    expect(container.dynamic.env[2].for_each).toBe(tf("var.sign_in == null ? {} : local.sign_in_secrets"));
    expect(container.dynamic.env[2].content[0].value_source[0].secret_key_ref[0]).toEqual({
      secret: tf("env.value"),
      version: "latest",
    });
    const locals = inModule("gateway").find((hcl) => hcl.locals)?.locals[0] ?? {};
    const names = [locals.environment, locals.sign_in_environment, locals.sign_in_secrets].flatMap((map) =>
      Object.keys(map ?? {}),
    );
    expect(Object.keys(locals.sign_in_secrets)).toEqual(["OIDC_CLIENT_SECRET", "SESSION_SECRET"]);
    // Behind the edge module's load balancer, one more proxy appends to X-Forwarded-For.
    expect(locals.environment.TRUST_PROXY_HOPS).toBe(tf('var.behind_load_balancer ? "2" : "1"'));
    // PAGE_TOKEN_KEY and WEBHOOK_SECRET_KEY are secrets, set from Secret Manager below, never plain variables.
    const secrets = ["PAGE_TOKEN_KEY", "WEBHOOK_SECRET_KEY"];
    const required = Object.keys(GatewayEnvSchema.entries).filter((name) => name !== "PORT" && !secrets.includes(name));
    expect(names).toEqual(expect.arrayContaining(required));
    expect(names).not.toEqual(expect.arrayContaining(secrets));
    const secret = container.dynamic.env[3];
    expect(secret.for_each).toBe(tf("var.page_token_key_secret == null ? [] : [var.page_token_key_secret]"));
    expect(secret.content[0]).toMatchObject({
      name: "PAGE_TOKEN_KEY",
      value_source: [{ secret_key_ref: [{ secret: tf("env.value"), version: "latest" }] }],
    });
    const webhookKey = container.dynamic.env[4];
    expect(webhookKey.for_each).toBe(
      tf("var.webhook_secret_key_secret == null ? [] : [var.webhook_secret_key_secret]"),
    );
    expect(webhookKey.content[0]).toMatchObject({
      name: "WEBHOOK_SECRET_KEY",
      value_source: [{ secret_key_ref: [{ secret: tf("env.value"), version: "latest" }] }],
    });
    expect(container.startup_probe[0].http_get[0].path).toBe("/healthz");
    expect(container.liveness_probe[0].http_get[0].path).toBe("/healthz");
  });

  it("sets every worker configuration variable on each function, whose entry points are the registered ones", () => {
    const environment = inModule("worker").find((hcl) => hcl.locals)?.locals[0].environment ?? {};
    expect(Object.keys(environment)).toEqual(expect.arrayContaining(Object.keys(WorkerEnvSchema.entries)));
    const fn = resource("worker", "google_cloudfunctions2_function", "worker");
    expect(fn.service_config[0].environment_variables).toBe(tf("local.environment"));
    expect(fn.build_config[0].entry_point).toBe(FUNCTION_NAME);
    // The scheduled steps are modules/scheduled-function instances, which set what they are given.
    const scheduled = resource("scheduled-function", "google_cloudfunctions2_function", "this");
    expect(scheduled.service_config[0].environment_variables).toBe(tf("var.environment_variables"));
    expect(scheduled.build_config[0].entry_point).toBe(tf("var.entry_point"));
    expect(scheduled.service_config[0].ingress_settings).toBe("ALLOW_INTERNAL_ONLY");
    const fold = moduleCall("worker", "fold");
    expect(fold.environment_variables).toBe(tf("local.environment"));
    expect(fold.entry_point).toBe(FOLD_FUNCTION_NAME);
  });

  it("ticks the fold step every minute through Pub/Sub, pushed by the pusher alone", () => {
    const fold = moduleCall("worker", "fold");
    expect(fold.source).toBe("../scheduled-function");
    expect(fold.schedule).toBe(tf("var.fold_schedule"));
    expect(inModule("worker").find((hcl) => hcl.variable?.fold_schedule)?.variable.fold_schedule[0].default).toBe(
      "* * * * *",
    );
    expect(fold.pusher_service_account_email).toBe(tf("var.pusher_service_account_email"));
    const job = resource("scheduled-function", "google_cloud_scheduler_job", "this");
    expect(job.schedule).toBe(tf("var.schedule"));
    expect(job.pubsub_target[0].topic_name).toBe(tf("google_pubsub_topic.ticks.id"));
    const push = resource("scheduled-function", "google_pubsub_subscription", "ticks");
    expect(push.push_config[0].push_endpoint).toBe(tf("google_cloudfunctions2_function.this.service_config[0].uri"));
    expect(push.push_config[0].oidc_token[0].service_account_email).toBe(tf("var.pusher_service_account_email"));
    const invoker = resource("scheduled-function", "google_cloud_run_service_iam_member", "pusher_invokes");
    expect(invoker.member).toBe(`serviceAccount:${tf("var.pusher_service_account_email")}`);
  });

  it("ticks the budget evaluation step every minute through Pub/Sub, into its registered entry point", () => {
    const budgets = moduleCall("worker", "budgets");
    expect(budgets.source).toBe("../scheduled-function");
    expect(budgets.name).toBe("usage-budgets");
    expect(budgets.entry_point).toBe(BUDGETS_FUNCTION_NAME);
    expect(budgets.environment_variables).toBe(tf("local.environment"));
    expect(budgets.schedule).toBe(tf("var.budgets_schedule"));
    expect(inModule("worker").find((hcl) => hcl.variable?.budgets_schedule)?.variable.budgets_schedule[0].default).toBe(
      "* * * * *",
    );
    expect(budgets.ticks_topic).toBe("usage-budget-ticks");
    expect(budgets.pusher_service_account_email).toBe(tf("var.pusher_service_account_email"));
  });

  it("names the topics as the code does", () => {
    const topic = parseGatewayConfig({}).PUBSUB_TOPIC;
    expect(variableDefault("pubsub", "topic_name")).toBe(topic);
    const example = files.get("envs/example/variables.tf")?.variable.topic_name[0].default;
    expect(example).toBe(topic);
    const names = defaultTopologyNames(topic);
    const name = (type: string, id: string) => resource("pubsub", type, id).name.replace(tf("var.topic_name"), topic);
    expect(name("google_pubsub_topic", "dead_letter")).toBe(names.deadLetterTopic);
    expect(name("google_pubsub_subscription", "cost_worker")).toBe(names.subscription);
    expect(name("google_pubsub_subscription", "dead_letter_hold")).toBe(names.deadLetterSubscription);
  });

  it("gives the worker's subscription a retry policy and a dead-letter policy after 5 attempts", () => {
    const subscription = resource("pubsub", "google_pubsub_subscription", "cost_worker");
    expect(subscription.retry_policy[0]).toEqual({
      minimum_backoff: tf("var.minimum_backoff"),
      maximum_backoff: tf("var.maximum_backoff"),
    });
    expect(subscription.dead_letter_policy[0].dead_letter_topic).toBe(tf("google_pubsub_topic.dead_letter.id"));
    expect(variableDefault("pubsub", "max_delivery_attempts")).toBe(5);
    expect(subscription.push_config[0].oidc_token[0].service_account_email).toBeDefined();
    // The service agent may dead-letter: publish to the dead-letter topic, acknowledge the source.
    expect(resource("pubsub", "google_pubsub_topic_iam_member", "agent_publishes_dead_letters").role).toBe(
      "roles/pubsub.publisher",
    );
    expect(resource("pubsub", "google_pubsub_subscription_iam_member", "agent_acks_source").role).toBe(
      "roles/pubsub.subscriber",
    );
  });

  it("grants no primitive role anywhere, and no anonymous access to the worker", () => {
    const roles: string[] = [];
    const members: Array<[string, string]> = [];
    const walk = (node: unknown, where: string) => {
      if (Array.isArray(node)) {
        for (const item of node) walk(item, where);
        return;
      }
      if (typeof node !== "object" || node === null) return;
      for (const [key, value] of Object.entries(node)) {
        if (key === "role" && typeof value === "string") roles.push(value);
        if (key === "member" && typeof value === "string") members.push([where, value]);
        walk(value, where);
      }
    };
    for (const [path, hcl] of files) walk(hcl, path);
    expect(roles.length).toBeGreaterThan(5);
    expect(roles.filter((role) => ["roles/owner", "roles/editor", "roles/viewer"].includes(role))).toEqual([]);
    expect(members.filter(([, member]) => member === "allUsers").map(([path]) => path)).toEqual([
      "modules/gateway/main.tf",
    ]);
  });

  it("lets the ingest gateway publish, read keys and pair spans, and the reports read the page token key", () => {
    expect(resource("iam", "google_pubsub_topic_iam_member", "gateway_publishes").role).toBe("roles/pubsub.publisher");
    expect(resource("iam", "google_project_iam_member", "gateway_reads_keys").role).toBe("roles/datastore.viewer");
    expect(resource("iam", "google_secret_manager_secret_iam_member", "reports_reads_page_token_key")).toMatchObject({
      secret_id: tf("google_secret_manager_secret.page_token_key.secret_id"),
      role: "roles/secretmanager.secretAccessor",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Terraform's own interpolation, as parsed.
      member: "serviceAccount:${google_service_account.reports.email}",
    });
    const gatewayGrants = inModule("iam").flatMap((hcl) =>
      Object.values(hcl.resource ?? {}).flatMap((byName) =>
        Object.values(byName as Hcl).filter((r: Hcl) =>
          String(r[0]?.member).includes("google_service_account.gateway"),
        ),
      ),
    );
    // Publishing, reading keys and organizations, and pairing OTLP spans (pairing-database.test.ts).
    expect(gatewayGrants).toHaveLength(3);
  });

  it("has alert policies for dead letters and the oldest unacked message", () => {
    const deadLetters = resource("monitoring", "google_monitoring_alert_policy", "dead_letter_holds");
    const lag = resource("monitoring", "google_monitoring_alert_policy", "worker_lag");
    expect(deadLetters.conditions[0].condition_threshold[0].filter).toContain("num_undelivered_messages");
    expect(lag.conditions[0].condition_threshold[0].filter).toContain("oldest_unacked_message_age");
  });
});
