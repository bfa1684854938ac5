import { createApiKey, hashApiKey } from "@usage-ingestion/organizations";
import { COLLECTIONS } from "@usage-ingestion/shared";
import { beforeAll, describe, expect, it } from "vitest";
import { validTransaction } from "../setup/fixtures.ts";
import { gatewayOnEmulators } from "../setup/gateway.ts";
import { databases, firestore, seedOrganization } from "../setup/harness.ts";
import { managementCalls } from "../setup/management.ts";

const setup = gatewayOnEmulators();
let adminKey: string;

const { call, orgPath } = managementCalls(setup, () => adminKey);
const auditLog = async () => {
  const body = await (await call("GET", orgPath("/audit-log"))).json();
  if (!body.entries) throw new Error(JSON.stringify(body));
  return body.entries;
};

beforeAll(async () => {
  adminKey = (await createApiKey(databases(), setup.org.organizationId, undefined, undefined, "admin")).key;
});

describe("the management API with an admin key", () => {
  it("answers the organization, and 404 for another one (its existence not told)", async () => {
    const own = await call("GET", orgPath());
    expect(own.status).toBe(200);
    expect(await own.json()).toMatchObject({ id: setup.org.organizationId, status: "active", dimensions: [] });
    const other = await seedOrganization();
    const response = await call("GET", `/v1/orgs/${other.organizationId}/api-keys`);
    expect(response.status).toBe(404);
    expect((await response.json()).error.code).toBe("not_found");
    expect((await call("GET", "/v1/orgs/no-such-org")).status).toBe(404);
  });

  it("refuses ingest and read keys 401, and no key 401", async () => {
    for (const key of [setup.org.apiKey, setup.org.readKey]) {
      const response = await call("GET", orgPath(), undefined, { "x-api-key": key });
      expect(response.status).toBe(401);
      expect((await response.json()).error.code).toBe("unauthorized");
    }
    const none = await fetch(`${setup.gateway.baseUrl}${orgPath()}`);
    expect(none.status).toBe(401);
  });

  it("creates a key shown once that sends usage, lists it without its secret, disables it", async () => {
    const created = await call("POST", orgPath("/api-keys"), { name: "ci", scope: "ingest" });
    expect(created.status).toBe(201);
    const { api_key, secret } = await created.json();
    expect(secret).toMatch(/^usk_/);
    expect(api_key).toMatchObject({ name: "ci", scope: "ingest", status: "active", prefix: secret.slice(0, 12) });
    expect(api_key.id).toMatch(/^key_[0-9a-f]{16}$/);
    expect(api_key.created_by).toEqual({ type: "api_key", id: expect.stringMatching(/^key_/) });

    const sent = await setup.gateway.post(validTransaction(), { "x-api-key": secret });
    expect(sent.status).toBe(202);

    const listed = await (await call("GET", orgPath("/api-keys"))).json();
    expect(JSON.stringify(listed)).not.toContain(secret);
    expect(JSON.stringify(listed)).not.toContain(hashApiKey(secret));
    expect(listed.api_keys.map((key: { id: string }) => key.id)).toContain(api_key.id);

    const disabled = await call("PATCH", orgPath(`/api-keys/${api_key.id}`), { status: "disabled" });
    expect(disabled.status).toBe(200);
    expect((await disabled.json()).status).toBe("disabled");
    const stored = await firestore().collection(COLLECTIONS.apiKeys).doc(hashApiKey(secret)).get();
    expect(stored.get("status")).toBe("disabled");

    const log = await auditLog();
    expect(
      log
        .filter((entry: { target: { id: string } }) => entry.target.id === api_key.id)
        .map((e: { action: string }) => e.action),
    ).toEqual(["api_key.disabled", "api_key.created"]);
    expect(JSON.stringify(log)).not.toContain(secret);
    expect(JSON.stringify(log)).not.toContain(hashApiKey(secret));
  });

  it("refuses bad bodies with field details, unknown fields by name, and unknown keys 404", async () => {
    const bad = await call("POST", orgPath("/api-keys"), { name: "", scope: "owner", extra: 1 });
    expect(bad.status).toBe(400);
    const body = await bad.json();
    expect(body.error.code).toBe("validation_error");
    expect(body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(["extra", "name", "scope"]);
    const notJson = await fetch(`${setup.gateway.baseUrl}${orgPath("/api-keys")}`, {
      method: "POST",
      headers: { "x-api-key": adminKey, "content-type": "application/json" },
      body: "{",
    });
    expect((await notJson.json()).error.code).toBe("invalid_json");
    expect((await call("PATCH", orgPath("/api-keys/key_0000000000000000"), { name: "x" })).status).toBe(404);
  });

  it("sets dimensions with one audit entry, and a change that fails leaves none", async () => {
    const before = (await auditLog()).length;
    const set = await call("PUT", orgPath("/dimensions"), { dimensions: ["feature", "team"] });
    expect(set.status).toBe(200);
    expect(await (await call("GET", orgPath("/dimensions"))).json()).toEqual({ dimensions: ["feature", "team"] });
    const refused = await call("PUT", orgPath("/dimensions"), { dimensions: ["a", "a"] });
    expect(refused.status).toBe(400);
    const log = await auditLog();
    expect(log.length).toBe(before + 1);
    expect(log[0]).toMatchObject({
      action: "dimensions.updated",
      actor: { type: "api_key" },
      target: { type: "organization", id: setup.org.organizationId },
      changes: { before: { dimensions: [] }, after: { dimensions: ["feature", "team"] } },
      request_id: set.headers.get("x-request-id"),
    });
  });

  it("pages lists with limit and page_token, and bounds limit", async () => {
    const first = await (await call("GET", orgPath("/api-keys?limit=1"))).json();
    expect(first.api_keys).toHaveLength(1);
    expect(first.next_page_token).toBeTypeOf("string");
    const second = await (await call("GET", orgPath(`/api-keys?limit=1&page_token=${first.next_page_token}`))).json();
    expect(second.api_keys[0].id).not.toBe(first.api_keys[0].id);
    const tooMany = await call("GET", orgPath("/api-keys?limit=1001"));
    expect(tooMany.status).toBe(400);
    expect((await tooMany.json()).error.details[0].field).toBe("limit");
  });
});
