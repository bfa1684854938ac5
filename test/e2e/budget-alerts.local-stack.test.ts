import { randomUUID } from "node:crypto";
import { Firestore } from "@google-cloud/firestore";
import { evaluateBudgets } from "@usage-ingestion/budgets";
import { dispatchWebhooks } from "@usage-ingestion/cost-worker";
import { createApiKey } from "@usage-ingestion/organizations";
import { DEFAULT_REPORT_LIMITS } from "@usage-ingestion/reports";
import { createWebhook, generateSecretKey, parseSecretKey, secretBox } from "@usage-ingestion/webhooks";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { runAdmin } from "../../scripts/admin/main.ts";
import { freePort } from "../../scripts/lib/processes.ts";
import { startStack } from "../../scripts/lib/stack.ts";
import { everyTick } from "../../scripts/local-stack/tick-jobs.ts";
import { uniqueId } from "../setup/harness.ts";
import { startReceiver, until } from "../setup/webhooks.ts";

// Budgets and webhooks together, as `npm start` runs them: usage posted to the gateway, priced by the worker
// process, the budget evaluation step recording each crossing in the outbox, the dispatch fanning it out,
// and the delivery function posting it, signed, to a real receiver. A Firestore project of this file's own:
// the dispatch reads every organization's outbox, and other files' outboxes are theirs to watch.
describe("budget alerts on the local stack", () => {
  it("turns usage past a budget's thresholds into signed webhook events, each once", { timeout: 120_000 }, async () => {
    const projectId = `demo-alerts-${randomUUID().slice(0, 8)}`;
    const db = new Firestore({ projectId });
    const reportsDb = new Firestore({ projectId, useBigInt: true });
    const key = generateSecretKey();
    const receiver = await startReceiver();
    const organizationId = uniqueId("alerts");
    const admin = (...args: string[]) => runAdmin(args, db, () => {});
    await admin("org", "create", organizationId);
    // $0.25 a unit: 4 units are $1.00, the whole of a $1 daily budget.
    await admin("pricing", "add", organizationId, '{"provider":"custom","model":"house","unit":"0.25"}');
    await admin("budget", "create", organizationId, "--id", "daily", "--amount", "1", "--period", "day");
    const { key: apiKey } = await createApiKey({ records: db, keys: db }, organizationId);
    const { webhook, secret } = await createWebhook(db, secretBox(parseSecretKey(key)), organizationId, {
      url: receiver.url,
      eventTypes: ["budget.threshold_crossed"],
    });
    const lines: string[] = [];
    const stack = await startStack({
      projectId,
      gatewayPort: await freePort(),
      existingEmulators: {
        pubsubHost: process.env.PUBSUB_EMULATOR_HOST,
        firestoreHost: process.env.FIRESTORE_EMULATOR_HOST,
      },
      env: { PUBSUB_TOPIC: uniqueId("usage"), WEBHOOK_DELIVERIES_TOPIC: uniqueId("deliveries") },
      webhookSecretKey: key,
      onLine: (service, line) => lines.push(`[${service}] ${line}`),
    });
    const stopDispatching = everyTick(
      dispatchWebhooks,
      {
        ...process.env,
        GOOGLE_CLOUD_PROJECT: projectId,
        WEBHOOK_DELIVERIES_TOPIC: stack.webhooks?.topic as string,
        WEBHOOK_SWEEP_AFTER_MS: String(10_000),
      },
      1_000,
      (line) => lines.push(`[dispatch] ${line}`),
    );
    const withLog = (error: Error) => {
      throw new Error(`${error.message}\n${lines.slice(-30).join("\n")}`);
    };
    try {
      const answer = await fetch(`${stack.baseUrl}/usage/transactions`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": apiKey },
        body: JSON.stringify({
          provider: "custom",
          model: "house",
          usage: [{ type: "custom", metrics: { units: 4 } }],
          context: { billable_customer_id: "acme" },
        }),
      });
      expect(answer.status).toBe(202);

      // The evaluation step, as the scheduled function runs it, until the stored record reaches the budget.
      const known = new Set<string>();
      const created: string[] = [];
      await until(
        async () => {
          const run = await evaluateBudgets(reportsDb, new Date(), {
            limits: DEFAULT_REPORT_LIMITS,
            organizationIds: [organizationId],
            known,
          });
          created.push(...run.created);
          return created.filter((id) => /_t\d+$/.test(id)).length === 3;
        },
        60_000,
        500,
      ).catch(withLog);
      // Evaluated again: nothing new is recorded.
      const again = await evaluateBudgets(reportsDb, new Date(), {
        limits: DEFAULT_REPORT_LIMITS,
        organizationIds: [organizationId],
      });
      expect(again.created).toEqual([]);

      await until(() => receiver.received.length >= 3, 60_000).catch(withLog);
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      const thresholdEvents = created.filter((id) => /_t\d+$/.test(id)).sort();
      expect(receiver.received.map((request) => request.headers["webhook-id"]).sort()).toEqual(
        thresholdEvents.map((id) => `${id}.${webhook.id}`),
      );
      const bodies = receiver.received.map(
        (request) =>
          new Webhook(secret).verify(request.body, request.headers as Record<string, string>) as {
            type: string;
            data: { budget_id: string; spent_usd: string; threshold_percent: number };
          },
      );
      expect(bodies.map((body) => body.data.threshold_percent).sort((a, b) => a - b)).toEqual([50, 80, 100]);
      for (const body of bodies) {
        expect(body).toMatchObject({
          type: "budget.threshold_crossed",
          data: { budget_id: "daily", spent_usd: "1.000000000" },
        });
      }
    } finally {
      await stopDispatching();
      await stack.stop();
      await receiver.close();
      await db.terminate();
      await reportsDb.terminate();
    }
  });
});
