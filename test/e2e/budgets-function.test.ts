import { randomUUID } from "node:crypto";
import { Firestore } from "@google-cloud/firestore";
import type { EventDocument } from "@usage-ingestion/budgets";
import { createBudget } from "@usage-ingestion/budgets";
import { BUDGETS_FUNCTION_NAME } from "@usage-ingestion/cost-worker";
import { createOrganization } from "@usage-ingestion/organizations";
import { DOCUMENT_PATHS } from "@usage-ingestion/shared";
import { describe, expect, it } from "vitest";
import { freePort } from "../../scripts/lib/processes.ts";
import { seedUsage } from "../../scripts/lib/seed-usage.ts";
import { startWorkerProcess } from "../../scripts/lib/services.ts";

// The budget evaluation step as deployed: the worker's code under the functions framework, target
// evaluateBudgets, one Pub/Sub push per scheduler tick. On a project of its own in the emulator, so it
// evaluates this test's organization alone.
describe("the budgets function", () => {
  it("records a crossing on a tick, and nothing more when the tick is pushed again", { timeout: 60_000 }, async () => {
    const projectId = `demo-budgets-${randomUUID().slice(0, 8)}`;
    const db = new Firestore({ projectId });
    await createOrganization(db, "acme");
    const budget = await createBudget(db, "acme", { amount_usd: "0.00001", period: "day", thresholds: [100] }, "b");
    await seedUsage(db, "acme", [], [{ received_at: new Date(Date.now() - 60_000).toISOString(), cost_nanos: 10_000 }]);
    const port = await freePort();
    const worker = await startWorkerProcess({
      port,
      target: BUDGETS_FUNCTION_NAME,
      env: {
        GOOGLE_CLOUD_PROJECT: projectId,
        FIRESTORE_EMULATOR_HOST: process.env.FIRESTORE_EMULATOR_HOST as string,
        LOG_FORMAT: "text",
      },
    });
    const tick = () =>
      fetch(`http://127.0.0.1:${port}/`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          message: { data: Buffer.from("budgets").toString("base64"), messageId: randomUUID() },
          subscription: `projects/${projectId}/subscriptions/usage-budget-ticks-push`,
        }),
      });
    const thresholdEvents = async () =>
      (await db.collection(DOCUMENT_PATHS.events("acme")).get()).docs
        .map((doc) => doc.data() as EventDocument)
        .filter((event) => event.type === "budget.threshold_crossed");
    try {
      expect((await tick()).status).toBeLessThan(300);
      const first = await thresholdEvents();
      expect(first).toHaveLength(1);
      expect(first[0]).toMatchObject({
        id: expect.stringMatching(/^b_\d{8}T000000Z_t100$/),
        data: { budget_id: budget.id, spent_usd: "0.000010000", percent: "100.00", threshold_percent: 100 },
        dispatched_at: null,
      });
      expect((await tick()).status).toBeLessThan(300);
      expect(await thresholdEvents()).toEqual(first);
    } finally {
      await worker.stop();
      await db.terminate();
    }
  });
});
