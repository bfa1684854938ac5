import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/lib/processes.ts";
import { startGatewayProcess } from "../../scripts/lib/services.ts";
import { validTransaction } from "../setup/fixtures.ts";
import { pullableTopic, seedOrganization } from "../setup/harness.ts";

// One image, two deployments (GATEWAY_ROLE): an ingestion gateway never runs a report, so a heavy report
// cannot share an instance with ingestion; a reports gateway never takes usage.

type Gateway = Awaited<ReturnType<typeof startGatewayProcess>>;
const started: Gateway[] = [];
let org: Awaited<ReturnType<typeof seedOrganization>>;
let topic: Awaited<ReturnType<typeof pullableTopic>>;

async function gatewayOf(role: string) {
  const port = await freePort();
  started.push(
    await startGatewayProcess({
      port,
      env: {
        PUBSUB_EMULATOR_HOST: process.env.PUBSUB_EMULATOR_HOST as string,
        FIRESTORE_EMULATOR_HOST: process.env.FIRESTORE_EMULATOR_HOST as string,
        GOOGLE_CLOUD_PROJECT: process.env.GOOGLE_CLOUD_PROJECT as string,
        PUBSUB_TOPIC: topic.topicName,
        GATEWAY_ROLE: role,
      },
    }),
  );
  const url = (path: string) => `http://127.0.0.1:${port}${path}`;
  return {
    ingest: () =>
      fetch(url("/usage/transactions"), {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": org.apiKey },
        body: JSON.stringify(validTransaction()),
      }),
    costs: () => fetch(url("/usage/costs"), { headers: { "x-api-key": org.readKey } }),
    records: () => fetch(url("/usage/records"), { headers: { "x-api-key": org.readKey } }),
    dashboard: () => fetch(url("/dashboard")),
    health: () => fetch(url("/healthz")),
  };
}

beforeAll(async () => {
  org = await seedOrganization();
  topic = await pullableTopic();
});
afterAll(async () => {
  await Promise.all(started.map((gateway) => gateway.stop()));
});

describe("the gateway's roles", () => {
  it("ingests and answers 404 for the reports when it is an ingestion gateway", async () => {
    const gateway = await gatewayOf("ingest");
    const sent = await gateway.ingest();
    expect(sent.status).toBe(202);
    const id = ((await sent.json()) as { results: Array<{ message_id: string }> }).results[0]?.message_id;
    expect((await topic.pull(1)).map((message) => message.id)).toEqual([id]);
    const costs = await gateway.costs();
    expect(costs.status).toBe(404);
    expect(((await costs.json()) as { error: { code: string } }).error.code).toBeTypeOf("string");
    const records = await gateway.records();
    expect(records.status).toBe(404);
    await records.arrayBuffer();
    expect((await gateway.dashboard()).status).toBe(404);
    expect((await gateway.health()).status).toBe(200);
  });

  it("reports and answers 404 for ingestion when it is a reports gateway", async () => {
    const gateway = await gatewayOf("reports");
    const costs = await gateway.costs();
    expect(costs.status).toBe(200);
    expect(await costs.json()).toMatchObject({ totals: expect.any(Object) });
    const records = await gateway.records();
    expect(records.status).toBe(200);
    expect(await records.json()).toEqual({ records: [] });
    expect((await gateway.dashboard()).status).toBe(200);
    const sent = await gateway.ingest();
    expect(sent.status).toBe(404);
    await sent.arrayBuffer();
    expect((await gateway.health()).status).toBe(200);
  });

  it("does both by default", async () => {
    const gateway = await gatewayOf("both");
    expect((await gateway.ingest()).status).toBe(202);
    expect((await gateway.costs()).status).toBe(200);
    expect((await gateway.records()).status).toBe(200);
  });
});
