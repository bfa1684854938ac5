import { type CostRecord, DOCUMENT_PATHS } from "@usage-ingestion/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { delay, freePort, type GroupProcess } from "../../scripts/lib/processes.ts";
import { startWorkerProcess } from "../../scripts/lib/services.ts";
import { defaultTopologyNames, ensureTopology, pushEndpointFor } from "../../scripts/lib/topology.ts";
import { startTestGateway } from "../setup/gateway.ts";
import { firestore, pubsub, seedOrganization, uniqueId } from "../setup/harness.ts";
import { ORACLE_CASES } from "./cases/index.ts";
import type { OracleCase } from "./oracle-case.ts";

const nanosOf = (usd: string) => {
  const [whole = "0", fraction = ""] = usd.split(".");
  return Number(BigInt(whole) * 1_000_000_000n + BigInt(fraction.padEnd(9, "0")));
};

/**
 * Every oracle case through the real path: the gateway (its clock set to the case's receive time, one
 * bulk per receive time), the Pub/Sub emulator's push subscription, the worker process under the
 * functions framework, and the record it stores in the Firestore emulator.
 */
describe("the oracle, end to end through gateway, Pub/Sub push and worker", () => {
  let worker: GroupProcess;
  let gateway: Awaited<ReturnType<typeof startTestGateway>>;
  let clock = new Date();

  beforeAll(async () => {
    const projectId = process.env.GOOGLE_CLOUD_PROJECT as string;
    const port = await freePort();
    worker = await startWorkerProcess({ port, env: { CUSTOM_PRICING_CACHE_TTL_MS: "0" } });
    const names = defaultTopologyNames(uniqueId("oracle"));
    await ensureTopology(pubsub(), names, {
      pushEndpoint: pushEndpointFor(`http://127.0.0.1:${port}`, projectId, names.topic),
    });
    gateway = await startTestGateway({ topicName: names.topic, now: () => clock });
  });
  afterAll(async () => {
    await gateway?.close();
    await worker?.stop();
  });

  it("stores every case with its hand-worked cost, to the nano-dollar", async () => {
    const org = await seedOrganization();
    const byTime = new Map<string, OracleCase[]>();
    for (const c of ORACLE_CASES) byTime.set(c.receivedAt, [...(byTime.get(c.receivedAt) ?? []), c]);

    const sent: Array<{ c: OracleCase; messageId: string }> = [];
    for (const [receivedAt, cases] of byTime) {
      clock = new Date(receivedAt);
      const response = await gateway.post({ transactions: cases.map((c) => c.request) }, { "x-api-key": org.apiKey });
      expect(response.status).toBe(202);
      const body = (await response.json()) as { results: Array<{ message_id: string }> };
      cases.forEach((c, index) => {
        sent.push({ c, messageId: body.results[index]?.message_id as string });
      });
    }

    const collection = firestore().collection(DOCUMENT_PATHS.transactions(org.organizationId));
    const deadline = Date.now() + 100_000;
    let records = new Map<string, CostRecord>();
    while (records.size < sent.length && Date.now() < deadline) {
      await delay(250);
      const snapshot = await collection.get();
      records = new Map(snapshot.docs.map((doc) => [doc.id, doc.data() as CostRecord]));
    }
    const outcome = sent.map(({ c, messageId }) => {
      const record = records.get(messageId);
      return {
        id: c.id,
        received_at: record?.received_at,
        cost_nanos: record?.cost_nanos,
        reason: record?.unpriced_reason,
      };
    });
    expect(outcome).toEqual(
      sent.map(({ c }) => ({
        id: c.id,
        received_at: new Date(c.receivedAt).toISOString(),
        cost_nanos: nanosOf(c.expectedCostUsd),
        reason: null,
      })),
    );
  }, 150_000);
});
