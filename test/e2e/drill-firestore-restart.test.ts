import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startEmulator } from "../../scripts/lib/emulators.ts";
import { delay, freePort, type GroupProcess } from "../../scripts/lib/processes.ts";
import { startStack } from "../../scripts/lib/stack.ts";
import { expectedNanos, sendLoad, waitForRecords } from "../setup/drill.ts";
import { firestore, seedOrganization, uniqueId } from "../setup/harness.ts";

const projectId = () => process.env.GOOGLE_CLOUD_PROJECT as string;

/**
 * The Firestore emulator keeps its data in memory only, and its --export-on-exit fails on this SDK
 * ("Database name ... has invalid trailing /"). A restart that keeps the data, as Firestore's would, is
 * therefore: export through the emulator's export endpoint, stop it, start it on the same port importing
 * that export. The worker is paused (SIGSTOP) for the half second of export and stop, so that no write
 * lands between the two; it runs, and meets the outage, for the whole restart.
 */
async function restartKeepingData(emulator: GroupProcess, port: number, worker: GroupProcess): Promise<GroupProcess> {
  const directory = mkdtempSync(join(tmpdir(), "firestore-drill-"));
  const workerPid = worker.child.pid as number;
  process.kill(workerPid, "SIGSTOP");
  try {
    await delay(300);
    const response = await fetch(`http://127.0.0.1:${port}/emulator/v1/projects/${projectId()}:export`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ database: `projects/${projectId()}/databases/(default)`, export_directory: directory }),
    });
    if (!response.ok) throw new Error(`export failed: ${response.status} ${await response.text()}`);
    await emulator.stop();
  } finally {
    process.kill(workerPid, "SIGCONT");
  }
  const [name] = readdirSync(directory);
  await delay(2_000);
  return startEmulator("firestore", projectId(), port, [
    `--import-data=${join(directory, name as string, `${name}.overall_export_metadata`)}`,
  ]);
}

describe("drill: the Firestore emulator stops and restarts under load", () => {
  it("stores every accepted transaction once, costs exact, once it is back", async () => {
    const port = await freePort();
    let emulator = await startEmulator("firestore", projectId(), port);
    // Everything in this file (seeding, the stack, the checks) uses this emulator.
    process.env.FIRESTORE_EMULATOR_HOST = `127.0.0.1:${port}`;
    const org = await seedOrganization();
    const stack = await startStack({
      projectId: projectId(),
      gatewayPort: await freePort(),
      existingEmulators: { pubsubHost: process.env.PUBSUB_EMULATOR_HOST, firestoreHost: `127.0.0.1:${port}` },
      // The key's cache entry expires during the outage (1 s): a key found active is accepted on what was
      // last read while Firestore cannot answer (KEY_SERVE_STALE_MS, 5 minutes by default). Each Firestore
      // call of the worker gives up after 3 s and is retried.
      env: { PUBSUB_TOPIC: uniqueId("drill-fs"), KEY_CACHE_TTL_MS: "1000", FIRESTORE_TIMEOUT_MS: "3000" },
      redeliveryIntervalMs: 3_000,
      onEvent: () => {},
    });
    let restarted: Promise<void> | undefined;
    try {
      const { accepted, statuses } = await sendLoad({
        baseUrl: stack.baseUrl,
        apiKey: org.apiKey,
        requests: 40,
        perRequest: 5,
        concurrency: 2,
        pauseMs: 250,
        between: (answered) => {
          if (answered !== 8) return;
          restarted = restartKeepingData(emulator, port, stack.worker.current()).then((next) => {
            emulator = next;
          });
        },
      });
      await restarted;
      // The key is served through the outage and Pub/Sub is up: no 500, and everything is accepted (a
      // loaded machine may time out a few).
      expect(statuses, `statuses: ${statuses.join(" ")}`).not.toContain(500);
      expect(accepted.length, `statuses: ${statuses.join(" ")}`).toBeGreaterThanOrEqual(180);

      const records = await waitForRecords(firestore(), org.organizationId, accepted.length, 60_000);
      expect([...records.keys()].sort()).toEqual(accepted.map((a) => a.messageId).sort());
      const sum = [...records.values()].reduce((total, record) => total + (record.cost_nanos ?? 0), 0);
      expect(sum).toBe(accepted.reduce((total, a) => total + expectedNanos(a.index), 0));
    } finally {
      await restarted?.catch(() => {});
      await stack.stop();
      await firestore().terminate();
      await emulator.stop();
    }
  }, 240_000);
});
