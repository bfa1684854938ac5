import { createApiKey } from "@usage-ingestion/organizations";
import { describe, expect, it } from "vitest";
import { freePort } from "../../scripts/lib/processes.ts";
import { commitWrites, rollupShardWrite } from "../../scripts/lib/seed-usage.ts";
import { startStack } from "../../scripts/lib/stack.ts";
import { sendLoad, waitForRecords } from "../setup/drill.ts";
import { databases, firestore, seedOrganization, uniqueId } from "../setup/harness.ts";

/**
 * A hostile tenant with read keys only runs six worst-case reports at once on the gateway that also takes
 * another tenant's usage (one process, both roles, the production heap limit): a month grouped by customer
 * over more roll-up documents than a report may read. Every report must end as 200 or 422
 * report_too_large, every ingest request as 202, and no process may die.
 */
const CUSTOMERS = 2_000;
const DAYS = 30;
const day = (d: number) => `2026-10-${String(d).padStart(2, "0")}`;

describe("drill: six worst-case reports while another tenant ingests", () => {
  it("answers every report 200 or report_too_large, every ingest 202, and restarts nothing", {
    timeout: 240_000,
  }, async () => {
    const hostile = await seedOrganization();
    const victim = await seedOrganization();
    // Reports at once are bounded per key (4 by default): six reports take two read keys.
    const second = await createApiKey(databases(), hostile.organizationId, undefined, undefined, "read");
    // 60,000 roll-up documents, one per customer and day: past the 50,000 one report may read.
    const cells = [];
    for (let d = 1; d <= DAYS; d++) {
      for (let c = 0; c < CUSTOMERS; c++) {
        cells.push(
          rollupShardWrite(
            firestore(),
            hostile.organizationId,
            { model: "gpt-4o", customer: `c-${c}`, day: day(d), shard: 0 },
            1,
            1_000,
          ),
        );
      }
    }
    await commitWrites(firestore(), cells);

    const events: string[] = [];
    const stack = await startStack({
      projectId: process.env.GOOGLE_CLOUD_PROJECT as string,
      gatewayPort: await freePort(),
      existingEmulators: {
        pubsubHost: process.env.PUBSUB_EMULATOR_HOST,
        firestoreHost: process.env.FIRESTORE_EMULATOR_HOST,
      },
      // Six reports of one organization at once (its default share is 4 of the instance's 8): what the
      // drill bounds is the instance's memory under six worst-case reports, whoever runs them.
      env: { PUBSUB_TOPIC: uniqueId("drill-reports"), REPORTS_AT_ONCE_PER_ORGANIZATION: "6" },
      onEvent: (line) => events.push(line),
    });
    try {
      const gatewayPid = stack.gateway.current().child.pid;
      const workerPid = stack.worker.current().child.pid;
      const report = async (key: string) => {
        const response = await fetch(
          `${stack.baseUrl}/usage/costs?from=${day(1)}&to=2026-10-31&group_by=billable_customer_id`,
          { headers: { "x-api-key": key }, signal: AbortSignal.timeout(60_000) },
        );
        const body = (await response.json()) as { error?: { code: string; message: string } };
        return { status: response.status, code: body.error?.code, message: body.error?.message };
      };
      const keys = [hostile.readKey, hostile.readKey, hostile.readKey, second.key, second.key, second.key];
      const [reports, load] = await Promise.all([
        Promise.all(keys.map(report)),
        sendLoad({ baseUrl: stack.baseUrl, apiKey: victim.apiKey, requests: 30, perRequest: 5, concurrency: 3 }),
      ]);

      for (const answer of reports) {
        expect([200, 422], JSON.stringify(answer)).toContain(answer.status);
        if (answer.status === 422) {
          expect(answer.code).toBe("report_too_large");
          expect(answer.message).toMatch(/narrow the range or the grouping/);
        }
      }
      // The data is past the ceiling: the reports were stopped by it, not answered in full.
      expect(reports.filter((answer) => answer.status === 422).length).toBeGreaterThan(0);
      expect(
        load.statuses.filter((status) => status !== 202),
        `statuses: ${load.statuses.join(" ")}`,
      ).toEqual([]);
      expect(load.accepted).toHaveLength(30 * 5);
      expect(stack.gateway.current().child.pid).toBe(gatewayPid);
      expect(stack.worker.current().child.pid).toBe(workerPid);
      expect(events).toEqual([]);
      // And what was accepted meanwhile is stored.
      const records = await waitForRecords(firestore(), victim.organizationId, load.accepted.length, 60_000);
      expect(records.size).toBe(load.accepted.length);
    } finally {
      await stack.stop();
    }
  });
});
