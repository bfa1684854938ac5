import { operatorChange } from "@usage-ingestion/audit";
import { inviteMember } from "@usage-ingestion/members";
import { createOrganization } from "@usage-ingestion/organizations";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firestore, uniqueId } from "../setup/harness.ts";
import { CookieJar, signInFixture } from "../setup/sign-in.ts";

// People reach the management API with their session, as programs do with an admin key: the role their
// membership gives decides, a change needs the CSRF guard's Origin and token, and a non-member gets 404.
let fixture: Awaited<ReturnType<typeof signInFixture>>;
const admin = `${uniqueId("admin")}@example.com`;
const viewer = `${uniqueId("viewer")}@example.com`;
const stranger = `${uniqueId("stranger")}@example.com`;
let org: string;
const jars = { admin: new CookieJar(), viewer: new CookieJar(), stranger: new CookieJar() };
const tokens: Record<keyof typeof jars, string> = { admin: "", viewer: "", stranger: "" };

beforeAll(async () => {
  fixture = await signInFixture([admin, viewer, stranger].map((email) => ({ email, emailVerified: true })));
  org = uniqueId("org");
  await createOrganization(firestore(), org, "Sessions on the management API");
  await inviteMember(firestore(), org, admin, "admin", operatorChange("test"));
  await inviteMember(firestore(), org, viewer, "viewer", operatorChange("test"));
  for (const [who, email] of [
    ["admin", admin],
    ["viewer", viewer],
    ["stranger", stranger],
  ] as const) {
    await fixture.signIn(jars[who], email);
    tokens[who] = (await fixture.me(jars[who])).token;
  }
});
afterAll(() => fixture.close());

const as = (who: keyof typeof jars, method: string, path: string, body?: unknown, token = tokens[who]) =>
  fixture.send(jars[who], method, `/v1/orgs/${org}${path}`, { body, token });

describe("the management API with a session", () => {
  it("lets an admin create a key, recorded in the audit log as that person", async () => {
    const created = await as("admin", "POST", "/api-keys", { name: "from the console", scope: "ingest" });
    expect(created.status).toBe(201);
    const { api_key, secret } = await created.json();
    expect(secret).toMatch(/^usk_/);
    expect(api_key).toMatchObject({
      name: "from the console",
      scope: "ingest",
      status: "active",
      created_by: { type: "user", id: admin },
    });
    const listed = await (await as("viewer", "GET", "/api-keys")).json();
    expect(listed.api_keys.map((key: { id: string }) => key.id)).toContain(api_key.id);
    expect(JSON.stringify(listed)).not.toContain(secret);
    const log = await (await as("viewer", "GET", "/audit-log")).json();
    const entry = log.entries.find((e: { action: string; target: { id: string } }) => e.target.id === api_key.id);
    expect(entry).toMatchObject({ action: "api_key.created", actor: { type: "user", id: admin } });
    expect(JSON.stringify(log)).not.toContain(secret);
  });

  it("refuses a viewer's change with 403, and reads for a viewer", async () => {
    expect((await as("viewer", "GET", "/dimensions")).status).toBe(200);
    expect((await as("viewer", "PUT", "/dimensions", { dimensions: ["feature"] })).status).toBe(403);
    expect((await as("viewer", "GET", "/reconciliation/settings")).status).toBe(200);
    expect((await as("viewer", "PUT", "/reconciliation/settings", { tolerance_percent: 5 })).status).toBe(403);
    expect((await as("viewer", "POST", "/api-keys", { name: "no", scope: "ingest" })).status).toBe(403);
  });

  it("answers 404 to a person who is not a member, whatever the route", async () => {
    for (const path of ["", "/api-keys", "/dimensions", "/audit-log"]) {
      const response = await as("stranger", "GET", path);
      expect(response.status, path).toBe(404);
      expect((await response.json()).error.code).toBe("not_found");
    }
  });

  it("refuses a change without the CSRF token, or from another origin, before it is made", async () => {
    const before = await (await as("admin", "GET", "/api-keys")).json();
    const noToken = await as("admin", "POST", "/api-keys", { name: "forged", scope: "ingest" }, "");
    expect(noToken.status).toBe(403);
    const crossSite = await fixture.send(jars.admin, "POST", `/v1/orgs/${org}/api-keys`, {
      body: { name: "forged", scope: "ingest" },
      token: tokens.admin,
      origin: "https://evil.example",
    });
    expect(crossSite.status).toBe(403);
    const after = await (await as("admin", "GET", "/api-keys")).json();
    expect(after.api_keys).toHaveLength(before.api_keys.length);
  });

  it("answers 401 without a session or a key", async () => {
    const response = await fetch(`${fixture.baseUrl}/v1/orgs/${org}/api-keys`);
    expect(response.status).toBe(401);
  });
});
