import { QUEUE_SCHEMA_VERSION } from "@usage-ingestion/shared";
import { describe, expect, it } from "vitest";
import { delay, freePort, waitFor } from "../../scripts/lib/processes.ts";
import { startStack } from "../../scripts/lib/stack.ts";
import { defaultTopologyNames, ensureTopology, pushEndpointFor } from "../../scripts/lib/topology.ts";
import { drillTransaction, expectedNanos, sendLoad, waitForRecords } from "../setup/drill.ts";
import { firestore, pubsub, seedOrganization, uniqueId } from "../setup/harness.ts";
import { envelope } from "../setup/worker.ts";

const projectId = () => process.env.GOOGLE_CLOUD_PROJECT as string;
const onTheTestEmulators = () => ({
  pubsubHost: process.env.PUBSUB_EMULATOR_HOST,
  firestoreHost: process.env.FIRESTORE_EMULATOR_HOST,
});

describe("drill: the worker dies under load", () => {
  it("restarts it and stores every accepted transaction once, costs exact", async () => {
    const org = await seedOrganization();
    const events: string[] = [];
    const stack = await startStack({
      projectId: projectId(),
      gatewayPort: await freePort(),
      existingEmulators: onTheTestEmulators(),
      env: { PUBSUB_TOPIC: uniqueId("drill") },
      onEvent: (line) => events.push(line),
      // Down for longer than the emulator keeps pushing under the retry policy (about 5 s), so what the
      // worker missed is what the emulator gave up on (docs/local-development.md, "Pub/Sub emulator behaviour").
      supervision: { restartDelayMs: 6_000 },
    });
    try {
      let killedPid: number | undefined;
      const { accepted, statuses } = await sendLoad({
        baseUrl: stack.baseUrl,
        apiKey: org.apiKey,
        requests: 40,
        perRequest: 5,
        concurrency: 4,
        pauseMs: 40,
        between: (answered) => {
          if (answered !== 15) return;
          killedPid = stack.worker.current().child.pid as number;
          process.kill(killedPid, "SIGKILL");
        },
      });
      // The gateway does not depend on the worker: everything is accepted (a loaded machine may time out a few).
      expect(accepted.length, `statuses: ${statuses.join(" ")}`).toBeGreaterThanOrEqual(180);
      await waitFor(
        async () => events.some((line) => line.startsWith("the cost worker is running again")),
        40_000,
        () => `the worker was not restarted:\n${events.join("\n")}`,
      );
      expect(events[0]).toBe(
        "the cost worker stopped (killed by SIGKILL); restarting it (restart 1 of 5 allowed within 60 s)",
      );
      expect(stack.worker.current().child.pid).not.toBe(killedPid);

      const records = await waitForRecords(firestore(), org.organizationId, accepted.length, 60_000);
      expect([...records.keys()].sort()).toEqual(accepted.map((a) => a.messageId).sort());
      const sum = [...records.values()].reduce((total, record) => total + (record.cost_nanos ?? 0), 0);
      expect(sum).toBe(accepted.reduce((total, a) => total + expectedNanos(a.index), 0));
    } finally {
      await stack.stop();
    }
  }, 150_000);

  it("a stack started on the same emulators delivers what an earlier one left undelivered; a dead gateway is restarted", async () => {
    const org = await seedOrganization();
    const names = defaultTopologyNames(uniqueId("backlog"));
    // An earlier stack whose worker is gone: the emulator gives up pushing after a few refusals.
    const deadWorker = `http://127.0.0.1:${await freePort()}`;
    await ensureTopology(pubsub(), names, { pushEndpoint: pushEndpointFor(deadWorker, projectId(), names.topic) });
    const topic = pubsub().topic(names.topic);
    const ids = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        topic.publishMessage({
          json: envelope(org.organizationId, drillTransaction(i)),
          attributes: { organization_id: org.organizationId, schema_version: String(QUEUE_SCHEMA_VERSION) },
        }),
      ),
    );
    await delay(5_000);

    const events: string[] = [];
    const stack = await startStack({
      projectId: projectId(),
      gatewayPort: await freePort(),
      existingEmulators: onTheTestEmulators(),
      env: { PUBSUB_TOPIC: names.topic },
      onEvent: (line) => events.push(line),
    });
    try {
      const records = await waitForRecords(firestore(), org.organizationId, ids.length, 30_000);
      expect([...records.keys()].sort()).toEqual([...ids].sort());
      const sum = [...records.values()].reduce((total, record) => total + (record.cost_nanos ?? 0), 0);
      expect(sum).toBe(20 * 3_500_000 + 12_500 * ((19 * 20) / 2));

      process.kill(stack.gateway.current().child.pid as number, "SIGKILL");
      await waitFor(
        async () => events.some((line) => line.startsWith("the gateway is running again")),
        30_000,
        () => `the gateway was not restarted:\n${events.join("\n")}`,
      );
      expect(events[0]).toBe(
        "the gateway stopped (killed by SIGKILL); restarting it (restart 1 of 5 allowed within 60 s)",
      );
      const response = await fetch(`${stack.baseUrl}/usage/transactions`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": org.apiKey },
        body: JSON.stringify(drillTransaction(0)),
      });
      expect(response.status).toBe(202);
    } finally {
      await stack.stop();
    }
  }, 120_000);
});
