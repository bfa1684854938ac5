import { Firestore } from "@google-cloud/firestore";
import { disableApiKey, firestoreKeyStore, hashApiKey, setOrganizationStatus } from "@usage-ingestion/organizations";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { delay } from "../../scripts/lib/processes.ts";
import { validTransaction } from "../setup/fixtures.ts";
import { startTestGateway } from "../setup/gateway.ts";
import { databases, firestore, freeClosedPort, pullableTopic, seedOrganization } from "../setup/harness.ts";

describe("POST /usage/transactions: authentication", () => {
  let gateway: Awaited<ReturnType<typeof startTestGateway>>;
  let topicName: string;

  beforeAll(async () => {
    topicName = (await pullableTopic()).topicName;
    gateway = await startTestGateway({ topicName, keyCacheTtlMs: 300 });
  });
  afterAll(() => gateway.close());

  it("answers 401 naming the header when X-Api-Key is absent", async () => {
    const response = await gateway.post(validTransaction());
    expect(response.status).toBe(401);
    const body = await response.json();
    expect(body).toEqual({ error: { code: "unauthorized", message: expect.stringContaining("X-Api-Key") } });
    expect(body.error.message).toMatch(/required/);
  });

  it("answers 401 for an unknown key, before looking at the body", async () => {
    const response = await gateway.post("{not json", { "X-Api-Key": "usk_unknown" });
    expect(response.status).toBe(401);
    const body = await response.json();
    expect(body.error.code).toBe("unauthorized");
    expect(body.error.message).toMatch(/invalid or missing/);
  });

  it("answers 401 for an empty key", async () => {
    const response = await gateway.post(validTransaction(), { "X-Api-Key": "" });
    expect(response.status).toBe(401);
  });

  it("refuses a disabled key within the cache time", async () => {
    const org = await seedOrganization();
    expect((await gateway.post(validTransaction(), { "X-Api-Key": org.apiKey })).status).toBe(202);
    await disableApiKey(databases(), org.keyPrefix);
    await delay(400);
    expect((await gateway.post(validTransaction(), { "X-Api-Key": org.apiKey })).status).toBe(401);
  });

  it("refuses every key of a disabled organization, and again accepts after it is enabled", async () => {
    const org = await seedOrganization({ organizationDisabled: true });
    expect((await gateway.post(validTransaction(), { "X-Api-Key": org.apiKey })).status).toBe(401);
    await setOrganizationStatus(firestore(), org.organizationId, "active");
    await delay(400);
    expect((await gateway.post(validTransaction(), { "X-Api-Key": org.apiKey })).status).toBe(202);
  });

  it("refuses a key whose organization does not exist", async () => {
    const key = "usk_orphan-key-for-a-missing-organization";
    await firestore()
      .collection("api_keys")
      .doc(hashApiKey(key))
      .set({ organization_id: "no-such-org", prefix: key.slice(0, 12), status: "active", created_at: "x" });
    expect((await gateway.post(validTransaction(), { "X-Api-Key": key })).status).toBe(401);
  });

  it("never writes the key, its hash or the body to the log", async () => {
    const org = await seedOrganization();
    const secretCustomer = "customer-secret-value";
    await gateway.post(validTransaction({ context: { billable_customer_id: secretCustomer } }), {
      "X-Api-Key": org.apiKey,
    });
    await gateway.post(validTransaction(), { "X-Api-Key": `${org.apiKey}x` });
    const logged = gateway.logger.text();
    expect(logged).not.toContain(org.apiKey);
    expect(logged).not.toContain(hashApiKey(org.apiKey));
    expect(logged).not.toContain(secretCustomer);
    expect(gateway.logger.lines.length).toBeGreaterThanOrEqual(2);
  });
});

describe("POST /usage/transactions: key store unavailable", () => {
  it("answers 500 internal_error, never 401, when Firestore cannot be reached", async () => {
    const port = await freeClosedPort();
    // The emulator variable outranks any `host` setting, so it is pointed at the closed port while building.
    const emulatorHost = process.env.FIRESTORE_EMULATOR_HOST;
    process.env.FIRESTORE_EMULATOR_HOST = `127.0.0.1:${port}`;
    // Never terminated: see unreachableFirestore in test/setup/worker.ts.
    const unreachable = new Firestore({ projectId: "demo-down" });
    process.env.FIRESTORE_EMULATOR_HOST = emulatorHost;
    const topicName = (await pullableTopic()).topicName;
    const gateway = await startTestGateway({
      topicName,
      keyStore: firestoreKeyStore({ records: unreachable, keys: unreachable }),
      keyLookupTimeoutMs: 1_000,
    });
    try {
      const response = await gateway.post(validTransaction(), { "X-Api-Key": "usk_any" });
      expect(response.status).toBe(500);
      const body = await response.json();
      expect(body.error.code).toBe("internal_error");
      expect(body.error.message).not.toMatch(/ECONNREFUSED|UNAVAILABLE|127\.0\.0\.1/);
    } finally {
      await gateway.close();
    }
  });
});
