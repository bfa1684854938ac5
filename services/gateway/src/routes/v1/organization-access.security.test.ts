import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AccessResolver } from "../../auth/organization-access.ts";
import { locals } from "../../http/send.ts";
import { startTestGateway, type TestGateway } from "../../testing/gateway-harness.ts";

// The management routes' access check on fakes: the stores are never reached for a refused caller, so
// a management dependency that throws on any use proves nothing passed the check.
const untouchable = new Proxy(
  {},
  {
    get: () => {
      throw new Error("a refused request reached a store");
    },
  },
);

/** A stand-in for the sign-in work's resolver: a cookie `viewer=<org>` gives the role viewer there. */
const viewerSession: AccessResolver = {
  applies: (req) => (req.headers.cookie ?? "").startsWith("viewer="),
  resolve(req, res, next) {
    const org = (req.headers.cookie ?? "").slice("viewer=".length);
    locals(res).access = { organizationId: org, role: "viewer", actor: { type: "user", id: "v@example.com" } };
    next();
  },
};

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway({
    // biome-ignore lint/suspicious/noExplicitAny: the proxy stands for every store and throws on use
    management: { databases: { records: untouchable as any, keys: untouchable as any } },
    access: [viewerSession],
  });
});
afterAll(() => gateway.close());

describe("access to /v1/orgs/{org}", () => {
  it("is 401 without credentials, and for ingest and read keys", async () => {
    const org = gateway.keys.organization();
    expect((await gateway.request(`/v1/orgs/${org.organizationId}`)).status).toBe(401);
    for (const key of [org.ingestKey, org.readKey]) {
      const response = await gateway.request(`/v1/orgs/${org.organizationId}`, { headers: { "x-api-key": key } });
      expect(response.status).toBe(401);
      expect((await response.json()).error.code).toBe("unauthorized");
    }
  });

  it("is 404 for an admin key of another organization, and for an id no organization can have", async () => {
    const org = gateway.keys.organization();
    gateway.keys.add("usk_admin_a", "org-a", "admin");
    for (const path of [`/v1/orgs/${org.organizationId}/api-keys`, "/v1/orgs/NOT%20AN%20ID"]) {
      const response = await gateway.request(path, { headers: { "x-api-key": "usk_admin_a" } });
      expect(response.status).toBe(404);
      expect((await response.json()).error.code).toBe("not_found");
    }
  });

  it("is 403 for a role below the route's, through a second resolver", async () => {
    const response = await gateway.request("/v1/orgs/org-v/api-keys", {
      method: "POST",
      headers: { cookie: "viewer=org-v", "content-type": "application/json" },
      body: JSON.stringify({ name: "x", scope: "ingest" }),
    });
    expect(response.status).toBe(403);
    expect((await response.json()).error.code).toBe("forbidden");
  });

  it("refuses an admin key on ingestion (401)", async () => {
    gateway.keys.add("usk_admin_b", "org-b", "admin");
    const ingest = await gateway.postUsage({}, { "x-api-key": "usk_admin_b" });
    expect(ingest.status).toBe(401);
  });
});
