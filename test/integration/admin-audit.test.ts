import { type AuditEntry, listAuditLog, operatorChange } from "@usage-ingestion/audit";
import { findMember } from "@usage-ingestion/members";
import { DOCUMENT_PATHS, UserError } from "@usage-ingestion/shared";
import { describe, expect, it } from "vitest";
import { runAdmin } from "../../scripts/admin/main.ts";
import { firestore, uniqueId } from "../setup/harness.ts";

const change = operatorChange("ops@example.com", "run-1");

async function admin(...args: string[]) {
  const lines: string[] = [];
  await runAdmin(args, firestore(), (line) => lines.push(line), { change });
  return lines;
}

/** The organization's entries, oldest first, as the changes were made. */
const entries = async (org: string): Promise<AuditEntry[]> =>
  (await listAuditLog([firestore()], org)).entries.reverse();

describe("admin org create --owner", () => {
  it("creates the organization and invites its first owner, with one entry each", async () => {
    const org = uniqueId("owned");
    expect(await admin("org", "create", org, "--name", "Owned Inc", "--owner", "Ana@Example.com")).toEqual([
      `created organization ${org} (Owned Inc)`,
      "invited ana@example.com as its owner; it takes effect when they sign in with that verified email",
    ]);
    expect(await findMember(firestore(), org, "ana@example.com")).toMatchObject({
      role: "owner",
      status: "invited",
      invited_by: "operator:ops@example.com",
      joined_at: null,
    });
    // Both made in one transaction at one time: their order in the log is not fixed.
    const log = (await entries(org)).sort((a, b) => a.action.localeCompare(b.action));
    expect(log.map((entry) => [entry.action, entry.target, entry.actor, entry.request_id])).toEqual([
      ["member.invited", { type: "member", id: "ana@example.com" }, change.actor, "run-1"],
      ["organization.created", { type: "organization", id: org }, change.actor, "run-1"],
    ]);
    expect(log[0]?.changes).toMatchObject({ before: null, after: { role: "owner", status: "invited" } });
    const audit = await admin("audit", org);
    expect(audit).toHaveLength(2);
    expect(audit.join("\n")).toContain("\toperator:ops@example.com\tmember.invited\tmember:ana@example.com\trun-1");
  });

  it("writes nothing when the organization exists or the owner is not an email", async () => {
    const org = uniqueId("owned");
    await admin("org", "create", org);
    await expect(admin("org", "create", org, "--owner", "bo@example.com")).rejects.toThrow(/already exists/);
    expect(await findMember(firestore(), org, "bo@example.com")).toBeUndefined();
    expect((await entries(org)).map((entry) => entry.action)).toEqual(["organization.created"]);
    const other = uniqueId("owned");
    await expect(admin("org", "create", other, "--owner", "not an email")).rejects.toBeInstanceOf(UserError);
    await expect(admin("org", "create", other, "--owner")).rejects.toBeInstanceOf(UserError);
    expect((await firestore().doc(DOCUMENT_PATHS.organization(other)).get()).exists).toBe(false);
  });
});

describe("admin changes in the audit log", () => {
  it("records status, limits and OTLP settings, one entry each, with before and after", async () => {
    const org = uniqueId("audited");
    await admin("org", "create", org);
    await admin("org", "disable", org);
    await admin("org", "enable", org);
    await admin("org", "limits", "set", org, "--reports-per-minute", "7");
    await admin("org", "otel", "set", org, "--customer-attribute", "tenant.id");
    const log = await entries(org);
    expect(log.map((entry) => entry.action)).toEqual([
      "organization.created",
      "organization.disabled",
      "organization.enabled",
      "organization.limits_updated",
      "organization.otel_updated",
    ]);
    expect(log[1]?.changes).toEqual({ before: { status: "active" }, after: { status: "disabled" } });
    expect(log[3]?.changes).toEqual({ before: { limits: {} }, after: { limits: { reports_per_minute: 7 } } });
    expect(log[4]?.changes).toEqual({ before: { otel: {} }, after: { otel: { customer_attribute: "tenant.id" } } });
    for (const entry of log) expect(entry.actor).toEqual({ type: "operator", id: "ops@example.com" });
  });

  it("records nothing for a change refused", async () => {
    const org = uniqueId("audited");
    await admin("org", "create", org);
    await expect(admin("org", "limits", "set", org, "--reports-per-minute", "many")).rejects.toBeInstanceOf(UserError);
    await expect(admin("org", "otel", "set", org, "--customer-attribute", "a b")).rejects.toBeInstanceOf(UserError);
    await expect(admin("org", "disable", uniqueId("missing"))).rejects.toThrow(/does not exist/);
    expect((await entries(org)).map((entry) => entry.action)).toEqual(["organization.created"]);
  });
});
