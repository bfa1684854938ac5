import { createApiKey } from "@usage-ingestion/organizations";
import { DOCUMENT_PATHS } from "@usage-ingestion/shared";
import { DEFAULT_DELIVERY_TIMING, newDelivery } from "@usage-ingestion/webhooks";
import { beforeAll, describe, expect, it } from "vitest";
import { gatewayOnEmulators, queuedDeliveries } from "../setup/gateway.ts";
import { databases, firestore, seedOrganization } from "../setup/harness.ts";
import { managementCalls } from "../setup/management.ts";
import { createEvent } from "../setup/webhooks.ts";

const setup = gatewayOnEmulators();
let adminKey: string;

const { call, orgPath } = managementCalls(setup, () => adminKey);
const auditLog = async () =>
  (await (await call("GET", orgPath("/audit-log"))).json()).entries as Array<{ action: string }>;
const webhookEntries = async () => (await auditLog()).filter((entry) => entry.action.startsWith("webhook"));

beforeAll(async () => {
  adminKey = (await createApiKey(databases(), setup.org.organizationId, undefined, undefined, "admin")).key;
});

describe("webhooks through the management API", () => {
  const secrets: string[] = [];
  let id: string;

  it("creates a webhook whose secret is shown once, and never again", async () => {
    const created = await call("POST", orgPath("/webhooks"), { url: "https://hooks.example.com/usage" });
    expect(created.status).toBe(201);
    const body = await created.json();
    expect(body.secret).toMatch(/^whsec_/);
    secrets.push(body.secret);
    id = body.webhook.id;
    expect(body.webhook).toMatchObject({
      url: "https://hooks.example.com/usage",
      status: "active",
      etag: expect.any(String),
    });
    const listed = await (await call("GET", orgPath("/webhooks"))).text();
    expect(listed).toContain(id);
    expect(listed).not.toContain(body.secret);
    expect((await call("POST", orgPath("/webhooks"), { url: "http://10.0.0.1/x" })).status).toBe(400);
    expect(await webhookEntries()).toHaveLength(1);
  });

  it("changes only with a current If-Match, rotates the secret, one entry each, no secret in them", async () => {
    const [webhook] = (await (await call("GET", orgPath("/webhooks"))).json()).webhooks;
    const stale = await call("PATCH", orgPath(`/webhooks/${id}`), { status: "disabled" }, { "if-match": '"stale"' });
    expect(stale.status).toBe(409);
    expect(await webhookEntries()).toHaveLength(1);
    const patched = await call(
      "PATCH",
      orgPath(`/webhooks/${id}`),
      { status: "disabled" },
      { "if-match": `"${webhook.etag}"` },
    );
    expect(patched.status).toBe(200);
    expect((await patched.json()).status).toBe("disabled");
    const rotated = await call("POST", orgPath(`/webhooks/${id}/rotate-secret`), { overlap_hours: 1 });
    expect(rotated.status).toBe(200);
    const { secret } = await rotated.json();
    expect(secret).toMatch(/^whsec_/);
    secrets.push(secret);
    const entries = await webhookEntries();
    expect(entries.map((entry) => entry.action).reverse()).toEqual([
      "webhook.created",
      "webhook.disabled",
      "webhook.secret_rotated",
    ]);
    const everything = JSON.stringify(await auditLog()) + (await (await call("GET", orgPath("/webhooks"))).text());
    for (const shown of secrets) expect(everything).not.toContain(shown);
    expect(everything).not.toContain("encrypted");
  });

  it("lists deliveries with their attempts and replays one", async () => {
    const org = setup.org.organizationId;
    const event = await createEvent(firestore(), org);
    await firestore()
      .doc(DOCUMENT_PATHS.webhookDelivery(org, id, event.id))
      .create(newDelivery(org, id, event, new Date(), DEFAULT_DELIVERY_TIMING));
    const listed = await (await call("GET", orgPath(`/webhooks/${id}/deliveries`))).json();
    expect(listed.deliveries).toEqual([expect.objectContaining({ event_id: event.id, attempts: [] })]);
    const replayed = await call("POST", orgPath(`/webhooks/${id}/deliveries/${listed.deliveries[0].id}/replay`));
    expect(replayed.status).toBe(202);
    expect(queuedDeliveries).toContainEqual({ organizationId: org, webhookId: id, eventId: event.id });
    expect((await call("POST", orgPath(`/webhooks/${id}/deliveries/nope/replay`))).status).toBe(404);
  });

  it("deletes with its If-Match, and another organization's webhooks are 404", async () => {
    const other = await seedOrganization();
    expect((await call("GET", `/v1/orgs/${other.organizationId}/webhooks`)).status).toBe(404);
    expect((await call("DELETE", orgPath(`/webhooks/${id}`), undefined, { "if-match": '"stale"' })).status).toBe(409);
    expect((await call("DELETE", orgPath(`/webhooks/${id}`))).status).toBe(204);
    expect((await call("PATCH", orgPath(`/webhooks/${id}`), { status: "active" })).status).toBe(404);
    expect((await webhookEntries())[0]?.action).toBe("webhook.deleted");
  });
});
