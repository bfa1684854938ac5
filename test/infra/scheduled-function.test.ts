import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type Hcl, INFRA, infraQuery, parseInfra, tf } from "./hcl.ts";

/**
 * The worker's scheduled steps (the fold, the budget evaluation and the webhook dispatch), offline on the
 * parsed Terraform: each is one instance of modules/scheduled-function, the only place a Cloud Scheduler job
 * is declared, and every resource their chains had in modules/worker before the module keeps its state
 * through a `moved` block, so a deployment from before plans moves and nothing destroyed or created.
 */
let files = new Map<string, Hcl>();
const query = () => infraQuery(files);
const resource = (type: string, name: string) => query().resource("scheduled-function", type, name);
const unwrap = (address: string) => /^\$\{(.+)\}$/.exec(address)?.[1] ?? address;

beforeAll(async () => {
  files = await parseInfra();
});

/** Every resource of the three chains, as modules/worker declared it before the module, and where it is now. */
const MOVED: Record<string, string> = {
  "google_cloudfunctions2_function.fold": "module.fold.google_cloudfunctions2_function.this",
  "google_cloud_run_service_iam_member.pusher_invokes_fold":
    "module.fold.google_cloud_run_service_iam_member.pusher_invokes",
  "google_pubsub_topic.fold_ticks": "module.fold.google_pubsub_topic.ticks",
  "google_pubsub_subscription.fold_ticks": "module.fold.google_pubsub_subscription.ticks",
  "google_cloud_scheduler_job.fold": "module.fold.google_cloud_scheduler_job.this",
  "google_cloudfunctions2_function.budgets": "module.budgets.google_cloudfunctions2_function.this",
  "google_cloud_run_service_iam_member.pusher_invokes_budgets":
    "module.budgets.google_cloud_run_service_iam_member.pusher_invokes",
  "google_pubsub_topic.budget_ticks": "module.budgets.google_pubsub_topic.ticks",
  "google_pubsub_subscription.budget_ticks": "module.budgets.google_pubsub_subscription.ticks",
  "google_cloud_scheduler_job.budgets": "module.budgets.google_cloud_scheduler_job.this",
  "google_cloudfunctions2_function.webhook_dispatch": "module.webhook_dispatch.google_cloudfunctions2_function.this",
  "google_cloud_run_service_iam_member.pusher_invokes_webhook_dispatch":
    "module.webhook_dispatch.google_cloud_run_service_iam_member.pusher_invokes",
  "google_pubsub_topic.webhook_dispatch_ticks": "module.webhook_dispatch.google_pubsub_topic.ticks",
  "google_pubsub_subscription.webhook_dispatch_ticks": "module.webhook_dispatch.google_pubsub_subscription.ticks",
  "google_cloud_scheduler_job.webhook_dispatch": "module.webhook_dispatch.google_cloud_scheduler_job.this",
};

/** What every step is given alike: the worker's project, build, identities, runtime and environment. */
const COMMON = {
  source: "../scheduled-function",
  project_id: tf("var.project_id"),
  region: tf("var.region"),
  runtime: tf("local.runtime"),
  source_bucket: tf("google_storage_bucket.source.name"),
  source_object: tf("google_storage_bucket_object.source.name"),
  service_account_email: tf("var.service_account_email"),
  pusher_service_account_email: tf("var.pusher_service_account_email"),
  environment_variables: tf("local.environment"),
};

/** Each step's own settings, as its function, topic, subscription and job had them before the module. */
const STEPS: Record<string, Record<string, unknown>> = {
  fold: {
    name: "usage-fold",
    entry_point: "foldSummaries",
    memory: "1Gi",
    timeout_seconds: 540,
    schedule: tf("var.fold_schedule"),
    tick_data: "fold",
    ticks_topic: "usage-fold-ticks",
    ack_deadline_seconds: 600,
    maximum_backoff: "300s",
  },
  budgets: {
    name: "usage-budgets",
    entry_point: "evaluateBudgets",
    memory: "1Gi",
    timeout_seconds: 540,
    schedule: tf("var.budgets_schedule"),
    tick_data: "budgets",
    ticks_topic: "usage-budget-ticks",
    ack_deadline_seconds: 600,
    maximum_backoff: "300s",
  },
  reconcile: {
    name: "usage-reconcile",
    entry_point: "reconcileVendors",
    // The vendors' credentials are sealed with the webhook secrets' key: this step alone reads it.
    secret_environment_variables: {
      WEBHOOK_SECRET_KEY: tf("google_secret_manager_secret.webhook_secret_key.secret_id"),
    },
    memory: "1Gi",
    timeout_seconds: 540,
    schedule: tf("var.reconcile_schedule"),
    tick_data: "reconcile",
    ticks_topic: "usage-reconcile-ticks",
    ack_deadline_seconds: 600,
    maximum_backoff: "300s",
    depends_on: [tf("google_secret_manager_secret_iam_member.worker_reads_webhook_key")],
  },
  webhook_dispatch: {
    name: "usage-webhook-dispatch",
    entry_point: "dispatchWebhooks",
    memory: "512Mi",
    timeout_seconds: 300,
    schedule: "* * * * *",
    tick_data: "dispatch",
    ticks_topic: "usage-webhook-dispatch-ticks",
    ack_deadline_seconds: 300,
    maximum_backoff: "60s",
  },
};

/** Steps that never had a chain of their own before the module: nothing of theirs is moved. */
const BORN_IN_MODULE = ["reconcile"];

/** The worker module's calls of modules/scheduled-function, by name. */
function scheduledCalls(): Map<string, Hcl> {
  const calls = new Map<string, Hcl>();
  for (const hcl of query().inFolder("modules/worker")) {
    for (const [name, [call]] of Object.entries(hcl.module ?? {}) as Array<[string, Hcl[]]>) {
      if (call?.source === COMMON.source) calls.set(name, call);
    }
  }
  return calls;
}

/** The resources a folder declares, as `type.name`. */
const declared = (folder: string) =>
  query()
    .inFolder(folder)
    .flatMap((hcl) =>
      Object.entries(hcl.resource ?? {}).flatMap(([type, byName]) =>
        Object.keys(byName as Hcl).map((n) => `${type}.${n}`),
      ),
    );

describe("the scheduled steps (Terraform)", () => {
  it("are each one instance of modules/scheduled-function, given what their chain had", () => {
    const calls = scheduledCalls();
    expect([...calls.keys()].sort()).toEqual(Object.keys(STEPS).sort());
    // Exactly these arguments: no step gains or loses a setting, a secret or an environment variable.
    for (const [name, call] of calls) expect(call, name).toEqual({ ...COMMON, ...STEPS[name] });
    // A run is over before Pub/Sub would push its tick again.
    for (const [name, step] of Object.entries(STEPS)) {
      expect(step.ack_deadline_seconds as number, name).toBeGreaterThanOrEqual(step.timeout_seconds as number);
    }
  });

  it("move every resource the three chains had in modules/worker to its place in the module", () => {
    const moved = Object.fromEntries(
      query()
        .inFolder("modules/worker")
        .flatMap((hcl) => hcl.moved ?? [])
        .map((block: Hcl) => [unwrap(block.from), unwrap(block.to)]),
    );
    expect(moved).toEqual(MOVED);
    // Nothing is left behind under its old address, and each new one is a resource the module declares.
    const worker = declared("modules/worker");
    expect(Object.keys(MOVED).filter((from) => worker.includes(from))).toEqual([]);
    const inModule = declared("modules/scheduled-function");
    for (const to of Object.values(MOVED)) {
      const [, call, address] = /^module\.([^.]+)\.(.+)$/.exec(to) ?? [];
      expect(scheduledCalls().has(call ?? ""), to).toBe(true);
      expect(inModule, to).toContain(address);
    }
    // Each instance's moves cover everything the module declares: no resource of a chain is created anew.
    // Steps born in the module (reconciliation) had no chain to move.
    for (const call of [...scheduledCalls().keys()].filter((name) => !BORN_IN_MODULE.includes(name))) {
      const addresses = Object.values(MOVED)
        .filter((to) => to.startsWith(`module.${call}.`))
        .map((to) => to.slice(`module.${call}.`.length));
      expect(addresses.sort(), call).toEqual([...inModule].sort());
    }
  });

  it("declare Cloud Scheduler jobs in modules/scheduled-function alone (elsewhere only moved blocks name one)", () => {
    const declaring = [...files.entries()]
      .filter(([, hcl]) => hcl.resource?.google_cloud_scheduler_job || hcl.data?.google_cloud_scheduler_job)
      .map(([path]) => path);
    expect(declaring).toEqual(["modules/scheduled-function/main.tf"]);
    const mentions = [...files.keys()]
      .filter((path) => !path.startsWith("modules/scheduled-function/"))
      .flatMap((path) =>
        readFileSync(join(INFRA, path), "utf8")
          .split("\n")
          .filter((line) => line.includes("google_cloud_scheduler_job"))
          .map((line) => `${path}: ${line.trim()}`),
      );
    expect(
      mentions.filter((mention) => !/: (from|to) += (module\.\w+\.)?google_cloud_scheduler_job\.\w+$/.test(mention)),
    ).toEqual([]);
  });
});

describe("modules/scheduled-function", () => {
  it("runs one instance, one tick at a time, internal-only, on the runtime and environment it is given", () => {
    const fn = resource("google_cloudfunctions2_function", "this");
    expect(fn.name).toBe(tf("var.name"));
    expect(fn.build_config[0]).toMatchObject({ runtime: tf("var.runtime"), entry_point: tf("var.entry_point") });
    expect(fn.build_config[0].source[0].storage_source[0]).toEqual({
      bucket: tf("var.source_bucket"),
      object: tf("var.source_object"),
    });
    expect(fn.service_config[0]).toMatchObject({
      service_account_email: tf("var.service_account_email"),
      max_instance_count: 1,
      max_instance_request_concurrency: 1,
      ingress_settings: "ALLOW_INTERNAL_ONLY",
      environment_variables: tf("var.environment_variables"),
    });
    expect(fn.service_config[0].secret_environment_variables).toBeUndefined();
  });

  it("is ticked by Cloud Scheduler through its own topic, pushed with the pusher's token, invoked by it alone", () => {
    const job = resource("google_cloud_scheduler_job", "this");
    expect(job).toMatchObject({ name: tf("var.name"), schedule: tf("var.schedule"), time_zone: "Etc/UTC" });
    expect(job.pubsub_target[0]).toEqual({
      topic_name: tf("google_pubsub_topic.ticks.id"),
      data: tf("base64encode(var.tick_data)"),
    });
    expect(resource("google_pubsub_topic", "ticks").name).toBe(tf("var.ticks_topic"));
    const push = resource("google_pubsub_subscription", "ticks");
    expect(push).toMatchObject({
      name: `${tf("var.ticks_topic")}-push`,
      topic: tf("google_pubsub_topic.ticks.id"),
      ack_deadline_seconds: tf("var.ack_deadline_seconds"),
    });
    expect(push.retry_policy[0]).toEqual({ minimum_backoff: "10s", maximum_backoff: tf("var.maximum_backoff") });
    expect(push.push_config[0]).toEqual({
      push_endpoint: tf("google_cloudfunctions2_function.this.service_config[0].uri"),
      oidc_token: [{ service_account_email: tf("var.pusher_service_account_email") }],
    });
    // A tick is worth nothing once the next has come: no dead-letter topic to watch.
    expect(push.dead_letter_policy).toBeUndefined();
    expect(resource("google_cloud_run_service_iam_member", "pusher_invokes")).toMatchObject({
      service: tf("google_cloudfunctions2_function.this.service_config[0].service"),
      role: "roles/run.invoker",
      member: `serviceAccount:${tf("var.pusher_service_account_email")}`,
    });
  });
});
