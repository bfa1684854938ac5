import { type AuditEntry, operatorChange } from "@usage-ingestion/audit";
import { inviteMember } from "@usage-ingestion/members";
import { createOrganization } from "@usage-ingestion/organizations";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firestore, uniqueId } from "../setup/harness.ts";
import { CookieJar, signInFixture } from "../setup/sign-in.ts";

let fixture: Awaited<ReturnType<typeof signInFixture>>;
const owner = `${uniqueId("owner")}@example.com`;
const invitee = `${uniqueId("invitee")}@example.com`;
const stranger = `${uniqueId("stranger")}@example.com`;
let org: string;
const ownerJar = new CookieJar();
let ownerToken: string;

beforeAll(async () => {
  fixture = await signInFixture([owner, invitee, stranger].map((email) => ({ email, emailVerified: true })));
  org = uniqueId("org");
  await createOrganization(firestore(), org, "Members test");
  await inviteMember(firestore(), org, owner, "owner", operatorChange("test"));
  await fixture.signIn(ownerJar, owner);
  ownerToken = (await fixture.me(ownerJar)).token;
});
afterAll(() => fixture.close());

const asOwner = (method: string, path: string, body?: unknown) =>
  fixture.send(ownerJar, method, path, { body, token: ownerToken });

describe("members", () => {
  it("invites by email; the invitation takes effect when that person signs in", async () => {
    const invited = await asOwner("POST", `/v1/orgs/${org}/members`, { email: invitee.toUpperCase(), role: "viewer" });
    expect(invited.status).toBe(201);
    expect(await invited.json()).toEqual({
      email: invitee,
      role: "viewer",
      status: "invited",
      invited_by: owner,
      joined_at: null,
    });
    expect((await asOwner("POST", `/v1/orgs/${org}/members`, { email: invitee, role: "admin" })).status).toBe(409);

    const jar = new CookieJar();
    await fixture.signIn(jar, invitee);
    const me = await fixture.me(jar);
    expect(await me.response.json()).toEqual({
      email: invitee,
      organizations: [{ id: org, name: "Members test", role: "viewer" }],
    });
    const list = await fixture.send(jar, "GET", `/v1/orgs/${org}/members?limit=1`);
    expect(list.status).toBe(200);
    const page = await list.json();
    expect(page.members).toHaveLength(1);
    expect(typeof page.next_page_token).toBe("string");
    const rest = await (
      await fixture.send(jar, "GET", `/v1/orgs/${org}/members?page_token=${page.next_page_token}`)
    ).json();
    const everyone = [...page.members, ...rest.members];
    expect(everyone.map((member: { email: string }) => member.email).sort()).toEqual([invitee, owner].sort());
    expect(everyone.find((member: { email: string }) => member.email === invitee)).toMatchObject({ status: "active" });
    expect((await fixture.send(jar, "GET", `/v1/orgs/${org}/members?limit=1001`)).status).toBe(400);

    // A viewer reads but does not change.
    const refused = await fixture.send(jar, "PATCH", `/v1/orgs/${org}/members/${owner}`, {
      body: { role: "viewer" },
      token: me.token,
    });
    expect(refused.status).toBe(403);
    expect((await refused.json()).error.code).toBe("forbidden");
    expect(
      (
        await fixture.send(jar, "POST", `/v1/orgs/${org}/members`, {
          body: { email: stranger, role: "owner" },
          token: me.token,
        })
      ).status,
    ).toBe(403);
  });

  it("changes a role, and keeps the last owner", async () => {
    const changed = await asOwner("PATCH", `/v1/orgs/${org}/members/${invitee}`, { role: "admin" });
    expect(changed.status).toBe(200);
    expect((await changed.json()).role).toBe("admin");
    const demote = await asOwner("PATCH", `/v1/orgs/${org}/members/${owner}`, { role: "admin" });
    expect(demote.status).toBe(409);
    expect((await demote.json()).error.code).toBe("conflict");
    expect((await asOwner("DELETE", `/v1/orgs/${org}/members/${owner}`)).status).toBe(409);
    expect((await asOwner("PATCH", `/v1/orgs/${org}/members/${invitee}`, { role: "boss" })).status).toBe(400);
    expect((await asOwner("DELETE", `/v1/orgs/${org}/members/nobody@example.com`)).status).toBe(404);
  });

  it("answers 404 for everything under an organization to a non-member", async () => {
    const jar = new CookieJar();
    await fixture.signIn(jar, stranger);
    const { token } = await fixture.me(jar);
    expect((await fixture.send(jar, "GET", `/v1/orgs/${org}/members`)).status).toBe(404);
    expect((await fixture.send(jar, "GET", `/v1/orgs/no-such-org/members`)).status).toBe(404);
    expect((await fixture.send(jar, "DELETE", `/v1/orgs/${org}/members/${owner}`, { token })).status).toBe(404);
    expect((await fixture.send(jar, "GET", `/usage/costs?org=${org}`)).status).toBe(404);
  });

  it("lets a member read the usage routes with a session and org", async () => {
    for (const path of ["/usage/costs", "/usage/unpriced", "/usage/budgets", "/usage/reconciliation"]) {
      const response = await fixture.send(ownerJar, "GET", `${path}?org=${org}`);
      expect(response.status, path).toBe(200);
    }
    const missing = await fixture.send(ownerJar, "GET", "/usage/costs");
    expect(missing.status).toBe(400);
    expect((await missing.json()).error.details[0].field).toBe("org");
    // Without a session or a key, the reports answer as before.
    expect((await fetch(`${fixture.baseUrl}/usage/costs?org=${org}`)).status).toBe(401);
  });

  it("removes a member, who then gets 404", async () => {
    expect((await asOwner("DELETE", `/v1/orgs/${org}/members/${invitee}`)).status).toBe(204);
    const jar = new CookieJar();
    await fixture.signIn(jar, invitee);
    expect((await fixture.send(jar, "GET", `/v1/orgs/${org}/members`)).status).toBe(404);
    expect(await (await fixture.me(jar)).response.json()).toEqual({ email: invitee, organizations: [] });
  });

  it("records every change once, with its actor and request, and nothing for a refused one", async () => {
    const log = await asOwner("GET", `/v1/orgs/${org}/audit-log`);
    expect(log.status).toBe(200);
    const members = ((await log.json()).entries as AuditEntry[])
      .filter((entry) => entry.target.type === "member")
      .reverse();
    expect(members.map((entry) => [entry.action, entry.actor, entry.target.id])).toEqual([
      ["member.invited", { type: "operator", id: "test" }, owner],
      ["member.joined", { type: "user", id: owner }, owner],
      ["member.invited", { type: "user", id: owner }, invitee],
      ["member.joined", { type: "user", id: invitee }, invitee],
      ["member.role_changed", { type: "user", id: owner }, invitee],
      ["member.removed", { type: "user", id: owner }, invitee],
    ]);
    expect(members[4]?.changes).toEqual({ before: { role: "viewer" }, after: { role: "admin" } });
    expect(members[5]?.changes?.before).toMatchObject({ email: invitee, role: "admin", status: "active" });
    for (const entry of members) expect(entry.request_id).toMatch(/\S/);
  });
});
