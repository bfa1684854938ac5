import { createApiKey, setDimensions } from "@usage-ingestion/organizations";
import { openCredential } from "@usage-ingestion/reconciliation";
import { DOCUMENT_PATHS } from "@usage-ingestion/shared";
import { beforeAll, describe, expect, it } from "vitest";
import { gatewayOnEmulators } from "../setup/gateway.ts";
import { databases, firestore, seedOrganization } from "../setup/harness.ts";
import { managementCalls } from "../setup/management.ts";

const setup = gatewayOnEmulators();
let adminKey: string;
let readKey: string;

const { call, orgPath } = managementCalls(setup, () => adminKey);
const connectionEntries = async () =>
  ((await (await call("GET", orgPath("/audit-log"))).json()).entries as Array<{ action: string }>).filter((entry) =>
    entry.action.startsWith("connection."),
  );

// Made-up credentials in each vendor's form: an OpenAI admin key and an Anthropic Admin API key.
const OPENAI_KEY = "sk-admin-Conn3ction7estKeyOnlyForThisTest";
const ANTHROPIC_KEY = "sk-ant-admin01-Conn3ction7estKeyOnlyForThisTest";

beforeAll(async () => {
  adminKey = (await createApiKey(databases(), setup.org.organizationId, undefined, undefined, "admin")).key;
  readKey = (await createApiKey(databases(), setup.org.organizationId, undefined, undefined, "read")).key;
  await setDimensions(firestore(), setup.org.organizationId, ["team"]);
});

describe("vendor connections through the management API", () => {
  it("stores a credential sealed, shows it never, and records the change without it", async () => {
    const created = await call("PUT", orgPath("/connections/openai"), {
      credential: OPENAI_KEY,
      mappings: { project_id: "team" },
    });
    expect(created.status).toBe(201);
    const body = await created.json();
    expect(body).toEqual({
      vendor: "openai",
      status: "active",
      created_at: expect.any(String),
      updated_at: expect.any(String),
      last_run_at: null,
      last_error: null,
      mappings: { project_id: "team" },
    });
    const replaced = await call("PUT", orgPath("/connections/openai"), { credential: `${OPENAI_KEY}2` });
    expect(replaced.status).toBe(200);
    expect((await replaced.json()).created_at).toBe(body.created_at);
    expect(await openCredential(firestore(), setup.gateway.box, setup.org.organizationId, "openai")).toBe(
      `${OPENAI_KEY}2`,
    );
    const stored = JSON.stringify(
      (await firestore().doc(DOCUMENT_PATHS.connection(setup.org.organizationId, "openai")).get()).data(),
    );
    expect(stored).not.toContain(OPENAI_KEY);
    const listed = await call("GET", orgPath("/connections"), undefined, { "x-api-key": readKey });
    expect(listed.status).toBe(401);
    const everything =
      (await (await call("GET", orgPath("/connections"))).text()) + JSON.stringify(await connectionEntries());
    expect(everything).not.toContain(OPENAI_KEY);
    expect(everything).not.toContain("encrypted");
    expect((await connectionEntries()).map((entry) => entry.action)).toEqual([
      "connection.updated",
      "connection.created",
    ]);
  });

  it("refuses what is not the vendor's credential, an unknown vendor, and a mapping to an undeclared dimension", async () => {
    const wrong = await call("PUT", orgPath("/connections/anthropic"), { credential: OPENAI_KEY });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).not.toContain(OPENAI_KEY);
    expect((await call("PUT", orgPath("/connections/mistral"), { credential: OPENAI_KEY })).status).toBe(404);
    const badMapping = await call("PUT", orgPath("/connections/anthropic"), {
      credential: ANTHROPIC_KEY,
      mappings: { workspace_id: "region" },
    });
    expect(badMapping.status).toBe(400);
    expect((await badMapping.json()).error.message).toContain("region");
    const unknownField = await call("PUT", orgPath("/connections/anthropic"), { credential: ANTHROPIC_KEY, key: 1 });
    expect(unknownField.status).toBe(400);
    const listed = await (await call("GET", orgPath("/connections"))).json();
    expect(listed.connections.map((connection: { vendor: string }) => connection.vendor)).toEqual(["openai"]);
  });

  it("removes a connection and its credential; another organization's are 404", async () => {
    const other = await seedOrganization();
    expect((await call("GET", `/v1/orgs/${other.organizationId}/connections`)).status).toBe(404);
    expect((await call("DELETE", orgPath("/connections/openai"))).status).toBe(204);
    expect((await call("DELETE", orgPath("/connections/openai"))).status).toBe(404);
    expect((await firestore().doc(DOCUMENT_PATHS.connection(setup.org.organizationId, "openai")).get()).exists).toBe(
      false,
    );
    expect((await connectionEntries())[0]?.action).toBe("connection.deleted");
  });
});
