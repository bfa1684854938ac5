import { createApiKey } from "@usage-ingestion/organizations";
import { beforeAll, describe, expect, it } from "vitest";
import { sendUnits } from "../setup/budgets.ts";
import { gatewayOnEmulators } from "../setup/gateway.ts";
import { databases, firestore } from "../setup/harness.ts";
import { managementCalls } from "../setup/management.ts";

const setup = gatewayOnEmulators();
let adminKey: string;

const { call, orgPath } = managementCalls(setup, () => adminKey);

beforeAll(async () => {
  adminKey = (await createApiKey(databases(), setup.org.organizationId, undefined, undefined, "admin")).key;
});

describe("prices and reprice through the management API", () => {
  it("adds a price that prices the next transaction, and reprices the unpriced ones", async () => {
    const org = setup.org.organizationId;
    const early = await sendUnits(org, new Date().toISOString(), 4, { billable_customer_id: "acme" });
    expect(early).toBeDefined();
    const misspelt = await call("POST", orgPath("/prices"), { provider: "custom", model: "house", unitt: "1" });
    expect(misspelt.status).toBe(400);
    expect((await misspelt.json()).error.details[0]).toMatchObject({ field: "unitt" });

    const created = await call("POST", orgPath("/prices"), { provider: "custom", model: "house", unit: "0.25" });
    expect(created.status).toBe(201);
    const price = await created.json();
    expect(price).toMatchObject({ provider: "custom", model: "house", unit: "0.25" });
    expect(price.id).toMatch(/^prc_/);
    const again = await call("POST", orgPath("/prices"), { provider: "custom", model: "house", unit: "0.5" });
    expect(again.status).toBe(409);

    const dry = await (await call("POST", orgPath("/reprice"), { dry_run: true })).json();
    expect(dry).toMatchObject({ dry_run: true, priced: [expect.objectContaining({ cost_usd: "1.000000000" })] });
    const done = await call("POST", orgPath("/reprice"));
    expect(done.status).toBe(200);
    expect((await done.json()).priced).toHaveLength(1);

    await sendUnits(org, new Date().toISOString(), 2, { billable_customer_id: "acme" });
    const records = await firestore().collection(`organizations/${org}/transactions`).get();
    expect(records.docs.map((doc) => doc.get("cost_usd")).sort()).toEqual(["0.500000000", "1.000000000"]);

    const log = (await (await call("GET", orgPath("/audit-log"))).json()).entries;
    // The seeded organization's and keys' own entries (`organization.created`, `api_key.created`, by an
    // operator) come first in time.
    const actions = log.map((entry: { action: string }) => entry.action);
    const seeded = (action: string) => action.startsWith("api_key.") || action === "organization.created";
    expect(actions.filter((action: string) => !seeded(action))).toEqual(["record.repriced", "price.created"]);
  });

  it("deletes a price only with a current If-Match", async () => {
    const listed = (await (await call("GET", orgPath("/prices"))).json()).prices;
    const [price] = listed;
    const stale = await call("DELETE", orgPath(`/prices/${price.id}`), undefined, { "if-match": '"stale"' });
    expect(stale.status).toBe(409);
    expect((await stale.json()).error.code).toBe("conflict");
    const removed = await call("DELETE", orgPath(`/prices/${price.id}`), undefined, { "if-match": `"${price.etag}"` });
    expect(removed.status).toBe(204);
    expect((await call("DELETE", orgPath(`/prices/${price.id}`))).status).toBe(404);
  });
});
