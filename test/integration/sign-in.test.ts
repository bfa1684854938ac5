import { operatorChange } from "@usage-ingestion/audit";
import { inviteMember } from "@usage-ingestion/members";
import { createOrganization } from "@usage-ingestion/organizations";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firestore, uniqueId } from "../setup/harness.ts";
import { CookieJar, signInFixture } from "../setup/sign-in.ts";

let fixture: Awaited<ReturnType<typeof signInFixture>>;
const owner = `${uniqueId("owner")}@example.com`;
const unverified = `${uniqueId("unverified")}@example.com`;
let org: string;

beforeAll(async () => {
  fixture = await signInFixture([
    { email: owner, emailVerified: true },
    { email: unverified, emailVerified: false },
  ]);
  org = uniqueId("org");
  await createOrganization(firestore(), org, "Sign-in test");
  await inviteMember(firestore(), org, owner, "owner", operatorChange("test"));
});
afterAll(() => fixture.close());

describe("signing in", () => {
  it("goes through the issuer and back, and GET /v1/me names the person and their organizations", async () => {
    const jar = new CookieJar();
    const { response, url } = await fixture.signIn(jar, owner, undefined, "/console/costs");
    expect(response.status).toBe(303);
    expect(url).toBe(`${fixture.baseUrl}/console/costs`);
    const cookie = response.headers.getSetCookie().join("\n");
    expect(cookie).toMatch(/usage_session=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    const { response: me, token } = await fixture.me(jar);
    expect(me.status).toBe(200);
    expect(await me.json()).toEqual({
      email: owner,
      organizations: [{ id: org, name: "Sign-in test", role: "owner" }],
    });
    expect(token.length).toBeGreaterThan(10);
  });

  it("refuses an email the issuer has not verified", async () => {
    const jar = new CookieJar();
    const { response } = await fixture.signIn(jar, unverified);
    expect(response.status).toBe(401);
    expect((await response.json()).error.code).toBe("unauthorized");
    expect((await fixture.me(jar)).response.status).toBe(401);
  });

  it("refuses a return path to another site", async () => {
    for (const bad of ["https://evil.example/", "//evil.example/", "/\\evil.example"]) {
      const response = await fetch(`${fixture.baseUrl}/auth/login?return_to=${encodeURIComponent(bad)}`, {
        redirect: "manual",
      });
      expect(response.status).toBe(400);
    }
  });

  it("answers 401 to GET /v1/me without a session", async () => {
    const response = await fetch(`${fixture.baseUrl}/v1/me`);
    expect(response.status).toBe(401);
  });
});

describe("logging out", () => {
  it("ends the session on the server: the same cookie no longer works", async () => {
    const jar = new CookieJar();
    await fixture.signIn(jar, owner);
    const kept = new Map(jar.cookies(fixture.baseUrl));
    const { token } = await fixture.me(jar);
    expect((await fixture.send(jar, "POST", "/auth/logout", { token })).status).toBe(204);
    expect((await fixture.me(jar)).response.status).toBe(401);
    const replay = new CookieJar();
    for (const [name, value] of kept) replay.cookies(fixture.baseUrl).set(name, value);
    expect((await fixture.me(replay)).response.status).toBe(401);
  });
});

describe("cross-site request forgery", () => {
  it("refuses a post from another origin, and one without the token, even with a valid session", async () => {
    const jar = new CookieJar();
    await fixture.signIn(jar, owner);
    const { token } = await fixture.me(jar);
    const body = { email: `${uniqueId("x")}@example.com`, role: "viewer" };
    const crossSite = await fixture.send(jar, "POST", `/v1/orgs/${org}/members`, {
      body,
      token,
      origin: "https://evil.example",
    });
    expect(crossSite.status).toBe(403);
    expect((await crossSite.json()).error.code).toBe("forbidden");
    const noToken = await fixture.send(jar, "POST", `/v1/orgs/${org}/members`, { body });
    expect(noToken.status).toBe(403);
    const noOrigin = await fixture.send(jar, "POST", `/v1/orgs/${org}/members`, { body, token, origin: null });
    expect(noOrigin.status).toBe(403);
    expect((await fixture.send(jar, "POST", `/v1/orgs/${org}/members`, { body, token })).status).toBe(201);
  });
});
