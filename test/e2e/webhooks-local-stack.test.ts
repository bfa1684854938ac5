import { randomUUID } from "node:crypto";
import { Firestore } from "@google-cloud/firestore";
import { dispatchWebhooks } from "@usage-ingestion/cost-worker";
import { createApiKey, createOrganization } from "@usage-ingestion/organizations";
import { createWebhook, generateSecretKey, parseSecretKey, secretBox } from "@usage-ingestion/webhooks";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { freePort } from "../../scripts/lib/processes.ts";
import { startStack } from "../../scripts/lib/stack.ts";
import { everyTick } from "../../scripts/local-stack/tick-jobs.ts";
import { uniqueId } from "../setup/harness.ts";
import { createEvent, startReceiver, until } from "../setup/webhooks.ts";

// The local stack's webhooks as `npm start` runs them: the delivery function as a process pushed by the
// Pub/Sub emulator, the dispatch and its sweep every second in this process. The emulator stops pushing a
// delivery after a few failures; the sweep is what gets it to a receiver that was down for a while. A
// Firestore project of this file's own: the dispatch reads every organization's outbox.
describe("webhooks on the local stack", () => {
  it("gets every event, once, to a receiver that failed for several seconds, and creates one through the API", {
    timeout: 120_000,
  }, async () => {
    const key = generateSecretKey();
    const projectId = `demo-webhooks-${randomUUID().slice(0, 8)}`;
    const db = new Firestore({ projectId });
    const organizationId = uniqueId("org");
    await createOrganization(db, organizationId);
    // Down from the start until 8 s after the events are made.
    let recoverAt = Number.POSITIVE_INFINITY;
    const receiver = await startReceiver(() => (Date.now() < recoverAt ? 500 : 200));
    const lines: string[] = [];
    const stack = await startStack({
      projectId,
      gatewayPort: await freePort(),
      existingEmulators: {
        pubsubHost: process.env.PUBSUB_EMULATOR_HOST,
        firestoreHost: process.env.FIRESTORE_EMULATOR_HOST,
      },
      env: {
        PUBSUB_TOPIC: uniqueId("usage"),
        WEBHOOK_DELIVERIES_TOPIC: uniqueId("deliveries"),
        WEBHOOK_SWEEP_AFTER_MS: "3000",
      },
      webhookSecretKey: key,
      onLine: (service, line) => lines.push(`[${service}] ${line}`),
    });
    const stopDispatching = everyTick(
      dispatchWebhooks,
      {
        ...process.env,
        GOOGLE_CLOUD_PROJECT: projectId,
        WEBHOOK_DELIVERIES_TOPIC: stack.webhooks?.topic as string,
        WEBHOOK_SWEEP_AFTER_MS: String(3_000),
      },
      1_000,
      (line) => lines.push(`[dispatch] ${line}`),
    );
    try {
      const { webhook, secret } = await createWebhook(db, secretBox(parseSecretKey(key)), organizationId, {
        url: receiver.url,
      });
      const events = [
        await createEvent(db, organizationId, { threshold: 50 }),
        await createEvent(db, organizationId, { threshold: 100 }),
        await createEvent(db, organizationId, { type: "budget.forecast_exceeded" }),
      ];
      recoverAt = Date.now() + 8_000;
      const expected = events.map((event) => `${event.id}.${webhook.id}`).sort();
      const delivered = () => receiver.received.filter((request) => request.answered === 200);
      await until(() => delivered().length >= 3, 90_000).catch((error: Error) => {
        throw new Error(`${error.message}\n${lines.slice(-30).join("\n")}`);
      });
      // A few sweeps later, still once each.
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      expect(
        delivered()
          .map((request) => request.headers["webhook-id"])
          .sort(),
      ).toEqual(expected);
      expect(receiver.received.some((request) => request.answered === 500)).toBe(true);
      for (const request of receiver.received) {
        expect(new Webhook(secret).verify(request.body, request.headers as Record<string, string>)).toBeTruthy();
      }
      // The gateway has the stack's key: a webhook created through the management API gets its secret.
      const adminKey = (await createApiKey({ records: db, keys: db }, organizationId, undefined, undefined, "admin"))
        .key;
      const created = await fetch(`${stack.baseUrl}/v1/orgs/${organizationId}/webhooks`, {
        method: "POST",
        headers: { "X-Api-Key": adminKey, "Content-Type": "application/json" },
        body: JSON.stringify({ url: "https://hooks.example.com/budgets" }),
      });
      const body = (await created.json()) as { webhook: { id: string }; secret: string };
      expect(created.status, JSON.stringify(body)).toBe(201);
      expect(body.secret).toMatch(/^whsec_/);
    } finally {
      await stopDispatching();
      await stack.stop();
      await receiver.close();
      await db.terminate();
    }
  });
});
