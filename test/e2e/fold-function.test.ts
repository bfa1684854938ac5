import { randomUUID } from "node:crypto";
import { Firestore } from "@google-cloud/firestore";
import { FOLD_FUNCTION_NAME } from "@usage-ingestion/cost-worker";
import { createOrganization } from "@usage-ingestion/organizations";
import {
  type CostSummaryDocument,
  FOLD_AFTER_MS,
  partColumns,
  SUMMARY_PATHS,
  summaryCells,
} from "@usage-ingestion/reports";
import { describe, expect, it } from "vitest";
import { freePort } from "../../scripts/lib/processes.ts";
import { seedUsage } from "../../scripts/lib/seed-usage.ts";
import { startWorkerProcess } from "../../scripts/lib/services.ts";

// The fold step as deployed: the worker's code under the functions framework, target foldSummaries, one
// Pub/Sub push per scheduler tick. On a project of its own in the emulator, so it folds this test's
// organization alone.
const DAY_MS = 86_400_000;

describe("the fold function", () => {
  it("folds every ended day in its look-back into summaries on a tick, and again on the next without harm", {
    timeout: 60_000,
  }, async () => {
    const projectId = `demo-fold-${randomUUID().slice(0, 8)}`;
    const db = new Firestore({ projectId, useBigInt: true });
    const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
    const day = new Date(today - 3 * DAY_MS).toISOString().slice(0, 10);
    await createOrganization(db, "acme");
    await seedUsage(
      db,
      "acme",
      [],
      [
        { received_at: `${day}T08:00:00.000Z`, customer: "a", cost_nanos: 1_250 },
        { received_at: `${day}T09:00:00.000Z`, customer: "b", cost_nanos: 2_500 },
        { received_at: `${day}T10:00:00.000Z`, customer: "a", cost_nanos: 4_000 },
      ],
    );
    const port = await freePort();
    const worker = await startWorkerProcess({
      port,
      target: FOLD_FUNCTION_NAME,
      env: {
        GOOGLE_CLOUD_PROJECT: projectId,
        FIRESTORE_EMULATOR_HOST: process.env.FIRESTORE_EMULATOR_HOST as string,
        FOLD_LOOKBACK_DAYS: "5",
        FOLD_LOOKBACK_HOURS: "2",
        LOG_FORMAT: "text",
      },
    });
    const tick = () =>
      fetch(`http://127.0.0.1:${port}/`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          message: { data: Buffer.from("tick").toString("base64"), messageId: randomUUID() },
          subscription: `projects/${projectId}/subscriptions/usage-fold-ticks`,
        }),
      });
    try {
      expect((await tick()).status).toBeLessThan(300);
      const parts = await db.collection(SUMMARY_PATHS.costSummaries("acme")).get();
      const byDay = new Map(
        parts.docs.map((doc) => [(doc.data() as CostSummaryDocument).day, doc.data() as CostSummaryDocument]),
      );
      // The five days before today, each folded (the empty ones too: they need no shard query either);
      // yesterday only once it ended FOLD_AFTER_MS ago.
      const ended = [5, 4, 3, 2, 1].filter((back) => today - (back - 1) * DAY_MS + FOLD_AFTER_MS <= Date.now());
      expect([...byDay.keys()].sort()).toEqual(
        ended.map((back) => new Date(today - back * DAY_MS).toISOString().slice(0, 10)),
      );
      const summary = byDay.get(day) as CostSummaryDocument;
      const cells = summaryCells(summary, partColumns(summary));
      expect(cells.map((cell) => [cell.billable_customer_id, cell.transactions, cell.cost_nanos]).sort()).toEqual([
        ["a", 2, 5_250n],
        ["b", 1, 2_500n],
      ]);
      // A second tick finds nothing due: the summaries stay as they were.
      const before = parts.docs.map((doc) => doc.data().fold_id).sort();
      expect((await tick()).status).toBeLessThan(300);
      const after = (await db.collection(SUMMARY_PATHS.costSummaries("acme")).get()).docs.map(
        (doc) => doc.data().fold_id,
      );
      expect(after.sort()).toEqual(before);
    } finally {
      await worker.stop();
      await db.terminate();
    }
  });
});
