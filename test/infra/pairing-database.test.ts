import { beforeAll, describe, expect, it } from "vitest";
import { type Hcl, infraQuery, parseInfra, tf } from "./hcl.ts";

/**
 * One call billed once across gateway instances (docs/decisions/0034): the span slots live in a Firestore
 * database of their own, the only one the ingest gateway may write, unindexed and deleted after their
 * `expire_at`.
 */
let files = new Map<string, Hcl>();
const query = () => infraQuery(files);

beforeAll(async () => {
  files = await parseInfra();
});

describe("the OTLP span pairing database", () => {
  it("is the ingest gateway's only writable database", () => {
    const grant = query().resource("iam", "google_project_iam_member", "gateway_pairs_spans");
    expect(grant.role).toBe("roles/datastore.user");
    expect(grant.member).toBe(`serviceAccount:${tf("google_service_account.gateway.email")}`);
    expect(grant.condition?.[0]?.expression).toBe(`resource.name == "${tf("local.pairing_database_name")}"`);
    expect(query().local("modules/iam", "pairing_database_name")).toBe(
      `projects/${tf("var.project_id")}/databases/${tf("var.pairing_database")}`,
    );
    expect(query().exampleModule("iam").pairing_database).toBe(tf("module.firestore.pairing_database"));
  });

  it("is the one the ingest gateway is told to pair in", () => {
    expect(query().exampleModule("gateway").pairing_database).toBe(tf("module.firestore.pairing_database"));
    expect(query().output("modules/firestore", "pairing_database").value).toBe(
      tf("google_firestore_database.pairing.name"),
    );
  });

  it("has Firestore delete slots past their expire_at, and index none of their fields", () => {
    const slots = query().resource("firestore", "google_firestore_field", "span_slots");
    expect(slots).toMatchObject({
      collection: "otlp_span_slots",
      database: tf("google_firestore_database.pairing.name"),
      index_config: [{}],
    });
    expect(slots.for_each).toBe(tf('toset(["wrapped", "untaken_id", "decision", "expire_at"])'));
    expect(JSON.stringify(slots.dynamic)).toContain('each.value == \\"expire_at\\"');
  });
});
