import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type QueueMessage, queueMessageAttributes } from "@usage-ingestion/shared";
import { beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../scripts/lib/services.ts";
import { type Hcl, infraQuery, parseInfra, tf } from "./hcl.ts";

/**
 * Least privilege and storage limits on Google Cloud, offline on the parsed Terraform: who may reach the
 * worker, which Firestore database each identity may touch, how long BigQuery keeps raw transactions and
 * who reads which rows (the optional Cloud Armor edge in front of the gateway: edge.test.ts).
 * infra/README.md, "Security", says why each is as it is.
 */
let files = new Map<string, Hcl>();
const query = () => infraQuery(files);
const inFolder = (folder: string) => query().inFolder(folder);
const resource = (module: string, type: string, name: string) => query().resource(module, type, name);
const variable = (folder: string, name: string) => query().variable(folder, name);
const output = (folder: string, name: string) => query().output(folder, name);
const local = (folder: string, name: string) => query().local(folder, name);
const exampleModule = (name: string) => query().exampleModule(name);

beforeAll(async () => {
  files = await parseInfra();
});

describe("the cost worker's ingress", () => {
  it("takes internal traffic only", () => {
    const fn = resource("worker", "google_cloudfunctions2_function", "worker");
    expect(fn.service_config[0].ingress_settings).toBe("ALLOW_INTERNAL_ONLY");
  });

  it("is pushed to by Pub/Sub in the same project at its run.app URL, which internal ingress admits", () => {
    // service_config.uri is the Cloud Run service's run.app URL (the function's `url` is cloudfunctions.net).
    expect(output("modules/worker", "url").value).toBe(
      tf("google_cloudfunctions2_function.worker.service_config[0].uri"),
    );
    const pubsub = exampleModule("pubsub");
    expect(pubsub.push_endpoint.startsWith(tf("module.worker.url"))).toBe(true);
    expect(pubsub.project_id).toBe(tf("var.project_id"));
    expect(exampleModule("worker").project_id).toBe(tf("var.project_id"));
  });

  it("keeps the push's OIDC token, and the pusher as the only invoker", () => {
    const subscription = resource("pubsub", "google_pubsub_subscription", "cost_worker");
    expect(subscription.push_config[0].oidc_token[0].service_account_email).toBe(tf("var.push_service_account_email"));
    expect(exampleModule("pubsub").push_service_account_email).toBe(tf("module.iam.pusher_email"));
    expect(exampleModule("worker").pusher_service_account_email).toBe(tf("module.iam.pusher_email"));
    const invoker = resource("worker", "google_cloud_run_service_iam_member", "pusher_invokes");
    expect(invoker).toMatchObject({
      role: "roles/run.invoker",
      member: `serviceAccount:${tf("var.pusher_service_account_email")}`,
    });
  });
});

describe("Firestore access", () => {
  const database = (name: string) => `projects/${tf("var.project_id")}/databases/${tf(`var.${name}`)}`;
  const records = `resource.name == "${tf("local.records_database_name")}"`;
  const keys = `resource.name == "${tf("local.keys_database_name")}"`;

  it("puts the keys in a database of their own, next to the records database", () => {
    expect(resource("firestore", "google_firestore_database", "default").name).toBe("(default)");
    expect(resource("firestore", "google_firestore_database", "keys").name).toBe(tf("var.keys_database_id"));
    const keysDatabase = variable("modules/firestore", "keys_database_id").default;
    expect(typeof keysDatabase).toBe("string");
    expect(keysDatabase).not.toBe("(default)");
    expect(output("modules/firestore", "keys_database").value).toBe(tf("google_firestore_database.keys.name"));
    const iam = exampleModule("iam");
    expect(iam.records_database).toBe(tf("module.firestore.database"));
    expect(iam.keys_database).toBe(tf("module.firestore.keys_database"));
    expect(local("modules/iam", "records_database_name")).toBe(database("records_database"));
    expect(local("modules/iam", "keys_database_name")).toBe(database("keys_database"));
  });

  it("lets the worker read and write the records database only, never the keys database", () => {
    const grant = resource("iam", "google_project_iam_member", "worker_writes_records");
    expect(grant.role).toBe("roles/datastore.user");
    expect(grant.condition?.[0]?.expression).toBe(records);
  });

  it("lets the worker run BigQuery jobs in its project (a customer's billing export), and read no dataset", () => {
    const grant = resource("iam", "google_project_iam_member", "worker_runs_billing_queries");
    expect(grant.role).toBe("roles/bigquery.jobUser");
    expect(grant.member).toBe(`serviceAccount:${tf("google_service_account.worker.email")}`);
  });

  it("lets the ingest gateway read the records and the keys, and key admins manage the keys only", () => {
    const gateway = resource("iam", "google_project_iam_member", "gateway_reads_keys");
    expect(gateway.role).toBe("roles/datastore.viewer");
    expect(gateway.member).toBe(`serviceAccount:${tf("google_service_account.gateway.email")}`);
    expect(gateway.condition?.[0]?.expression).toBe(`${records} || ${keys}`);
    const admins = resource("iam", "google_project_iam_member", "key_admins");
    expect(admins.condition?.[0]?.expression).toBe(keys);
    expect(variable("modules/iam", "key_admins").default).toEqual([]);
  });

  it("lets the reports gateway, with an identity of its own, read and write the records and the keys", () => {
    // The management API and sign-in write keys, audit entries, members and sessions (decisions 0024, 0025).
    const reports = resource("iam", "google_project_iam_member", "reports_writes_management");
    expect(reports.role).toBe("roles/datastore.user");
    expect(reports.member).toBe(`serviceAccount:${tf("google_service_account.reports.email")}`);
    expect(reports.condition?.[0]?.expression).toBe(`${records} || ${keys}`);
    expect(exampleModule("reports").service_account_email).toBe(tf("module.iam.reports_email"));
    expect(exampleModule("gateway").service_account_email).toBe(tf("module.iam.gateway_email"));
    // The ingest gateway's identity is granted no other Firestore role than these two.
    const gatewayGrants = [...files.values()].flatMap((hcl) =>
      Object.values((hcl.resource?.google_project_iam_member ?? {}) as Record<string, Hcl[]>)
        .map(([grant]) => grant)
        .filter((grant) => grant?.member === `serviceAccount:${tf("google_service_account.gateway.email")}`)
        .map((grant) => grant?.role),
    );
    expect(gatewayGrants.sort()).toEqual(["roles/datastore.user", "roles/datastore.viewer"]);
    // Its one writable database is where instances pair OTLP spans: pairing-database.test.ts.
  });

  it("lets each gateway read the sign-in secrets it is given, and no other secret", () => {
    const grant = resource("gateway", "google_secret_manager_secret_iam_member", "sign_in_secrets");
    expect(grant).toMatchObject({
      for_each: tf("var.sign_in == null ? {} : local.sign_in_secrets"),
      secret_id: tf("each.value"),
      role: "roles/secretmanager.secretAccessor",
      member: `serviceAccount:${tf("var.service_account_email")}`,
    });
    expect(exampleModule("reports").sign_in).toBe(tf("local.sign_in"));
    expect(exampleModule("gateway").sign_in).toBeUndefined();
  });

  it("grants the reports gateway's identity exactly its own roles, on the resources named", () => {
    // Every IAM member resource whose member is the reports account, in the iam module or passed to another.
    const reportsMembers = [
      `serviceAccount:${tf("google_service_account.reports.email")}`,
      `serviceAccount:${tf("var.reports_service_account_email")}`,
    ];
    const grants: string[] = [];
    for (const [path, hcl] of files) {
      for (const [type, byName] of Object.entries(hcl.resource ?? {})) {
        for (const [name, [grant]] of Object.entries(byName as Record<string, Hcl[]>)) {
          if (reportsMembers.includes(grant?.member))
            grants.push(`${path.split("/").slice(-2)[0]}: ${type}.${name} ${grant?.role}`);
        }
      }
    }
    expect(grants.sort()).toEqual(
      [
        "iam: google_project_iam_member.reports_writes_management roles/datastore.user",
        "iam: google_secret_manager_secret_iam_member.reports_reads_page_token_key roles/secretmanager.secretAccessor",
        // The management API's webhooks: the key that seals their secrets, and replays on the deliveries topic.
        "worker: google_secret_manager_secret_iam_member.reports_reads_webhook_key roles/secretmanager.secretAccessor",
        "worker: google_pubsub_topic_iam_member.reports_queues_replays roles/pubsub.publisher",
      ].sort(),
    );
  });

  it("has Firestore delete sessions past their expires_at", () => {
    const ttl = resource("firestore", "google_firestore_field", "session_expiry");
    expect(ttl).toMatchObject({ collection: "sessions", field: "expires_at" });
    expect(ttl.ttl_config).toBeDefined();
  });

  it("grants no Firestore role without a condition naming its databases", () => {
    const unconditioned: string[] = [];
    for (const [path, hcl] of files) {
      for (const [type, byName] of Object.entries(hcl.resource ?? {})) {
        for (const [name, [grant]] of Object.entries(byName as Record<string, Hcl[]>)) {
          if (typeof grant?.role !== "string" || !grant.role.startsWith("roles/datastore.")) continue;
          const expression = grant.condition?.[0]?.expression ?? "";
          if (!expression.startsWith("resource.name == ")) unconditioned.push(`${path}: ${type}.${name}`);
        }
      }
    }
    expect(unconditioned).toEqual([]);
  });
});

describe("BigQuery", () => {
  it("deletes raw transactions partition_expiration_days after their day (400 by default)", () => {
    expect(variable("modules/analytics", "partition_expiration_days").default).toBe(400);
    expect(local("modules/analytics", "partition_expiration_ms")).toBe(
      tf("var.partition_expiration_days * 24 * 60 * 60 * 1000"),
    );
    const table = resource("analytics", "google_bigquery_table", "transactions");
    expect(table.time_partitioning[0]).toMatchObject({
      type: "DAY",
      expiration_ms: tf("local.partition_expiration_ms"),
    });
    const dataset = resource("analytics", "google_bigquery_dataset", "usage");
    expect(dataset.default_partition_expiration_ms).toBe(tf("local.partition_expiration_ms"));
    expect(exampleModule("analytics").partition_expiration_days).toBe(tf("var.bigquery_partition_expiration_days"));
    expect(variable("envs/example", "bigquery_partition_expiration_days").default).toBe(400);
  });

  it("shows each organization's readers that organization's rows only, by the attribute the gateway sets", () => {
    const attributes = queueMessageAttributes({ organization_id: "org-a", schema_version: 1 } as QueueMessage);
    const attribute = Object.keys(attributes).find((key) => attributes[key] === "org-a");
    expect(attribute).toBe("organization_id");
    const policy = resource("analytics", "google_bigquery_row_access_policy", "organization");
    expect(policy.for_each).toBe(tf("var.organization_readers"));
    expect(policy.filter_predicate).toBe(`JSON_VALUE(attributes, '$.${attribute}') = '${tf("each.key")}'`);
    expect(policy.grantees).toBe(tf("each.value"));
    expect(policy.table_id).toBe(tf("google_bigquery_table.transactions.table_id"));
    // Off by default: no organization listed, no policy, the table reads as before.
    expect(variable("modules/analytics", "organization_readers").default).toEqual({});
    expect(exampleModule("analytics").organization_readers).toBe(tf("var.bigquery_organization_readers"));
    // Readers need to read the table at all; the policy then filters what they see.
    const readers = resource("analytics", "google_bigquery_table_iam_member", "organization_readers");
    expect(readers).toMatchObject({ role: "roles/bigquery.dataViewer", member: tf("each.value") });
  });

  it("keeps every row visible to all_rows_readers once any organization policy exists", () => {
    expect(local("modules/analytics", "row_policies_on")).toBe(tf("length(var.organization_readers) > 0"));
    const everything = resource("analytics", "google_bigquery_row_access_policy", "all_rows");
    expect(everything.count).toBe(tf("local.row_policies_on && length(var.all_rows_readers) > 0 ? 1 : 0"));
    expect(everything).toMatchObject({ filter_predicate: "TRUE", grantees: tf("var.all_rows_readers") });
  });

  it("writes only organization ids the admin command line makes into the policies' SQL", () => {
    const admin = readFileSync(join(REPO_ROOT, "packages/organizations/src/organizations.ts"), "utf8");
    const pattern = /const ORG_ID = \/(.+)\/;/.exec(admin)?.[1];
    expect(pattern).toBeDefined();
    const [validation] = variable("modules/analytics", "organization_readers").validation;
    expect(validation.condition).toContain(`regex("${pattern}", id)`);
    expect(new RegExp(pattern ?? "$^").test("a'b")).toBe(false);
  });

  it("asks for a google provider that has google_bigquery_row_access_policy (added in 6.36.0)", () => {
    const [terraform] = inFolder("modules/analytics").flatMap((hcl) => hcl.terraform ?? []);
    const version: string = terraform.required_providers[0].google.version;
    const major = Number(/^~> (\d+)\.\d+$/.exec(version)?.[1]);
    expect(major).toBeGreaterThanOrEqual(7);
  });
});
