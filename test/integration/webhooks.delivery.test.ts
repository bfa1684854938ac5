import { randomUUID } from "node:crypto";
import { Firestore } from "@google-cloud/firestore";
import type { EventDocument } from "@usage-ingestion/budgets";
import { createOrganization } from "@usage-ingestion/organizations";
import { compareFigures, DEFAULT_TOLERANCE, driftEvents, recordDrift } from "@usage-ingestion/reconciliation";
import { DOCUMENT_PATHS } from "@usage-ingestion/shared";
import {
  AttemptFailed,
  DAY_MS,
  type DeliveryDocument,
  type DeliveryTiming,
  deliverWebhook,
  dispatchEvents,
  generateSecretKey,
  parseSecretKey,
  secretBox,
  webhookBody,
} from "@usage-ingestion/webhooks";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdmin } from "../../scripts/admin/main.ts";
import { uniqueId } from "../setup/harness.ts";
import { createEvent, deliveryPipeline, startReceiver, until } from "../setup/webhooks.ts";

// Budget events from the outbox to a real HTTP receiver: dispatch, the deliveries topic on the Pub/Sub
// emulator, the delivery function, signatures checked with the standardwebhooks library. Firestore in a
// project of this file's own, so the dispatch (which reads every organization's outbox) sees these events only.
const db = new Firestore({ projectId: `demo-webhooks-${randomUUID().slice(0, 8)}` });
const box = secretBox(parseSecretKey(generateSecretKey()));
const timing: DeliveryTiming = { timeoutMs: 3_000, sweepAfterMs: 60_000, retryWindowMs: DAY_MS };
let pipeline: Awaited<ReturnType<typeof deliveryPipeline>>;

const admin = async (...args: string[]) => {
  const lines: string[] = [];
  await runAdmin(args, db, (line) => lines.push(line), {
    webhookBox: () => box,
    deliveryQueue: () => pipeline.queue,
  });
  return lines;
};

async function organizationWithWebhook(url: string, ...options: string[]) {
  const organizationId = uniqueId("org");
  await createOrganization(db, organizationId, "Webhook test");
  const created = await admin("webhook", "create", organizationId, url, ...options);
  const webhookId = /created webhook (\S+)/.exec(created[0] as string)?.[1] as string;
  return { organizationId, webhookId, secret: created.at(-1) as string };
}

const delivery = async (organizationId: string, webhookId: string, eventId: string) =>
  (await db.doc(DOCUMENT_PATHS.webhookDelivery(organizationId, webhookId, eventId)).get()).data() as DeliveryDocument;

beforeAll(async () => {
  pipeline = await deliveryPipeline(db, box, timing);
});
afterAll(async () => {
  await pipeline?.close();
  await db.terminate();
});

describe("webhook delivery", () => {
  it("posts the event's body, signed, which the standardwebhooks library verifies", async () => {
    const receiver = await startReceiver();
    try {
      const { organizationId, webhookId, secret } = await organizationWithWebhook(receiver.url);
      const event = await createEvent(db, organizationId);
      const run = await dispatchEvents({ db, queue: pipeline.queue, timing });
      expect(run).toMatchObject({ dispatched: 1, deliveries: 1, queueFailures: 0 });
      const [request] = await until(() => receiver.received.length === 1 && receiver.received);
      expect(request?.headers["content-type"]).toBe("application/json");
      expect(request?.headers["webhook-id"]).toBe(`${event.id}.${webhookId}`);
      const verified = new Webhook(secret).verify(request?.body as string, {
        "webhook-id": request?.headers["webhook-id"] as string,
        "webhook-timestamp": request?.headers["webhook-timestamp"] as string,
        "webhook-signature": request?.headers["webhook-signature"] as string,
      });
      expect(verified).toEqual({ type: "budget.threshold_crossed", timestamp: event.created_at, data: event.data });
      expect(verified).toEqual(webhookBody(event));
      await expect.poll(async () => (await delivery(organizationId, webhookId, event.id))?.status).toBe("delivered");
      const stored = (await db.doc(DOCUMENT_PATHS.event(organizationId, event.id)).get()).data() as EventDocument;
      expect(stored.dispatched_at).not.toBeNull();
      // Dispatched once: a second run finds nothing to do.
      expect(await dispatchEvents({ db, queue: pipeline.queue, timing })).toMatchObject({
        dispatched: 0,
        deliveries: 0,
      });
    } finally {
      await receiver.close();
    }
  });

  it("delivers a reconciliation drift the same way, signed, once per day and vendor", async () => {
    const receiver = await startReceiver();
    try {
      const { organizationId, webhookId, secret } = await organizationWithWebhook(receiver.url);
      // Usage the vendor billed that never reached us: $0.075 of one day, past 1% and $0.01.
      const tokens = { input_tokens: 50_000, output_tokens: 5_000, cached_tokens: 0, cache_creation_input_tokens: 0 };
      const comparisons = compareFigures(
        [],
        [{ day: "2026-11-20", model: "claude-haiku-4-5", tokens, cost_nanos: 75_000_000n, components: {} }],
      );
      const events = driftEvents(organizationId, "anthropic", comparisons, DEFAULT_TOLERANCE, new Date());
      expect(await recordDrift(db, organizationId, events)).toEqual(["2026-11-20"]);
      expect(await recordDrift(db, organizationId, events)).toEqual([]);
      expect(await dispatchEvents({ db, queue: pipeline.queue, timing })).toMatchObject({
        dispatched: 1,
        deliveries: 1,
      });
      const [request] = await until(() => receiver.received.length === 1 && receiver.received);
      expect(request?.headers["webhook-id"]).toBe(`reconciliation_anthropic_2026-11-20.${webhookId}`);
      const verified = new Webhook(secret).verify(request?.body as string, {
        "webhook-id": request?.headers["webhook-id"] as string,
        "webhook-timestamp": request?.headers["webhook-timestamp"] as string,
        "webhook-signature": request?.headers["webhook-signature"] as string,
      });
      expect(verified).toEqual({
        type: "reconciliation.drift",
        timestamp: events[0]?.created_at,
        data: {
          organization_id: organizationId,
          vendor: "anthropic",
          day: "2026-11-20",
          ours_usd: "0.000000000",
          reported_usd: "0.075000000",
          difference_usd: "0.075000000",
          threshold: { percent: 1, usd: "0.010000000" },
          rows: [{ model: "claude-haiku-4-5", class: "vendor_only", difference_usd: "0.075000000" }],
        },
      });
    } finally {
      await receiver.close();
    }
  });

  it("gets every event to a receiver that fails three times, each delivered once, every attempt listed", async () => {
    const receiver = await startReceiver((_, index) => (index < 3 ? 503 : 200));
    try {
      const { organizationId, webhookId, secret } = await organizationWithWebhook(receiver.url);
      const events = [
        await createEvent(db, organizationId, { threshold: 50 }),
        await createEvent(db, organizationId, { threshold: 80 }),
        await createEvent(db, organizationId, { type: "budget.forecast_exceeded" }),
      ];
      // Two dispatchers at once: each event still gets one delivery.
      const runs = await Promise.all([
        dispatchEvents({ db, queue: pipeline.queue, timing }),
        dispatchEvents({ db, queue: pipeline.queue, timing }),
      ]);
      expect(runs[0].deliveries + runs[1].deliveries).toBe(3);
      const succeeded = () => receiver.received.filter((request) => request.answered < 300);
      await until(() => succeeded().length >= 3, 30_000);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const ids = succeeded().map((request) => request.headers["webhook-id"]);
      expect(ids.sort()).toEqual(events.map((event) => `${event.id}.${webhookId}`).sort());
      for (const request of receiver.received) {
        expect(() => new Webhook(secret).verify(request.body, request.headers as Record<string, string>)).not.toThrow();
      }
      await expect
        .poll(async () =>
          Promise.all(events.map(async (event) => (await delivery(organizationId, webhookId, event.id)).status)),
        )
        .toEqual(["delivered", "delivered", "delivered"]);

      const listed = await admin("webhook", "deliveries", organizationId, webhookId);
      const attempts = listed.filter((line) => line.startsWith("  "));
      expect(attempts).toHaveLength(receiver.received.length);
      expect(attempts.filter((line) => /\t503\tHTTP 503\t\d+ ms$/.test(line))).toHaveLength(3);
      expect(attempts.filter((line) => /\t200\tok\t\d+ ms$/.test(line))).toHaveLength(3);
      for (const event of events) {
        expect(listed).toContainEqual(expect.stringMatching(new RegExp(`^${event.id}\\.${webhookId}\\tdelivered\\t`)));
      }
    } finally {
      await receiver.close();
    }
  });

  it("delivers after a crash between dispatch and delivery, through the sweep", async () => {
    const receiver = await startReceiver();
    try {
      const { organizationId, webhookId } = await organizationWithWebhook(receiver.url);
      const event = await createEvent(db, organizationId);
      // The dispatcher made the delivery, then lost it before Pub/Sub had it (the process died, Pub/Sub was down).
      const lost = { queue: () => Promise.reject(new Error("the process stopped here")) };
      expect(await dispatchEvents({ db, queue: lost, timing })).toMatchObject({ dispatched: 1, queueFailures: 1 });
      expect((await delivery(organizationId, webhookId, event.id)).status).toBe("pending");
      // Before its sweep time nothing is queued again; after it, the sweep queues it.
      expect(await dispatchEvents({ db, queue: pipeline.queue, timing })).toMatchObject({ requeued: 0 });
      const later = () => new Date(Date.now() + timing.sweepAfterMs + 1_000);
      expect(await dispatchEvents({ db, queue: pipeline.queue, timing, now: later })).toMatchObject({ requeued: 1 });
      await until(() => receiver.received.length === 1);
      await expect.poll(async () => (await delivery(organizationId, webhookId, event.id)).status).toBe("delivered");
    } finally {
      await receiver.close();
    }
  });

  it("sends no event that names another organization, or is not in the contract's shape", async () => {
    const receiver = await startReceiver();
    try {
      const { organizationId, webhookId } = await organizationWithWebhook(receiver.url);
      const foreign = await createEvent(db, organizationId, { budgetId: "foreign" });
      await db.doc(DOCUMENT_PATHS.event(organizationId, foreign.id)).update({ "data.organization_id": "someone-else" });
      await db.doc(DOCUMENT_PATHS.event(organizationId, "bad")).create({ type: "budget.spent", dispatched_at: null });
      const good = await createEvent(db, organizationId);
      expect(await dispatchEvents({ db, queue: pipeline.queue, timing })).toMatchObject({
        dispatched: 1,
        refused: 2,
        deliveries: 1,
      });
      await until(() => receiver.received.length === 1);
      expect(receiver.received[0]?.headers["webhook-id"]).toBe(`${good.id}.${webhookId}`);
      const refusedEvent = (await db.doc(DOCUMENT_PATHS.event(organizationId, "bad")).get()).data();
      expect(refusedEvent).toMatchObject({ dispatch_error: expect.stringMatching(/^type: /) });
      expect((await db.doc(DOCUMENT_PATHS.event(organizationId, foreign.id)).get()).get("dispatch_error")).toMatch(
        /not the outbox's organization/,
      );
    } finally {
      await receiver.close();
    }
  });

  it("lists an attempt that could not be signed (another key), and retries it", async () => {
    const receiver = await startReceiver();
    try {
      const { organizationId, webhookId } = await organizationWithWebhook(receiver.url);
      const event = await createEvent(db, organizationId);
      const run = await dispatchEvents({ db, queue: { queue: async () => undefined }, timing });
      expect(run).toMatchObject({ deliveries: 1 });
      const otherKey = secretBox(parseSecretKey(generateSecretKey()));
      const ref = { organizationId, webhookId, eventId: event.id };
      await expect(deliverWebhook({ db, box: otherKey, timing, receivers: "any" }, ref)).rejects.toThrow(AttemptFailed);
      expect(receiver.received).toHaveLength(0);
      const listed = await admin("webhook", "deliveries", organizationId, webhookId);
      expect(listed[1]).toMatch(/\t-\tnot sent: the webhook secret does not decrypt with WEBHOOK_SECRET_KEY/);
      expect(await deliverWebhook({ db, box, timing, receivers: "any" }, ref)).toBe("delivered");
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it("posts nothing to a receiver whose name resolves to this machine, off the local stack, and lists why", async () => {
    const receiver = await startReceiver();
    try {
      // Registered on the local stack; delivered by a function that allows public addresses only.
      const { organizationId, webhookId } = await organizationWithWebhook(
        receiver.url.replace("127.0.0.1", "localhost"),
      );
      const event = await createEvent(db, organizationId);
      expect(await dispatchEvents({ db, queue: { queue: async () => undefined }, timing })).toMatchObject({
        deliveries: 1,
      });
      const ref = { organizationId, webhookId, eventId: event.id };
      await expect(deliverWebhook({ db, box, timing }, ref)).rejects.toThrow(AttemptFailed);
      expect(receiver.received).toHaveLength(0);
      const listed = await admin("webhook", "deliveries", organizationId, webhookId);
      expect(listed[1]).toMatch(/\t-\trefused: the receiver's address (127\.0\.0\.1|::1) is not public/);
      expect(await deliverWebhook({ db, box, timing, receivers: "any" }, ref)).toBe("delivered");
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it("marks a delivery failed once its retry window is over, and a replay delivers it again", async () => {
    let up = false;
    const receiver = await startReceiver(() => (up ? 200 : 500));
    try {
      const { organizationId, webhookId } = await organizationWithWebhook(receiver.url);
      const event = await createEvent(db, organizationId);
      await dispatchEvents({ db, queue: pipeline.queue, timing });
      await until(() => receiver.received.length >= 2);
      const afterWindow = () => new Date(Date.now() + DAY_MS + 60_000);
      // The sweep takes the oldest due deliveries of the whole project a batch at a time, and other files
      // leave theirs in it: it runs until this one's turn has come, marking it failed.
      let markedFailed = 0;
      for (let run = 0; run < 20 && (await delivery(organizationId, webhookId, event.id)).status !== "failed"; run++) {
        markedFailed += (await dispatchEvents({ db, queue: pipeline.queue, timing, now: afterWindow })).failed;
      }
      expect(markedFailed).toBeGreaterThanOrEqual(1);
      const failed = await delivery(organizationId, webhookId, event.id);
      expect(failed.status).toBe("failed");
      expect(failed.last_error).toMatch(/not delivered within 24 hours; last: HTTP 500/);
      const seen = receiver.received.length;
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(receiver.received.length).toBe(seen);

      up = true;
      expect(await admin("webhook", "replay", organizationId, webhookId, event.id)).toEqual([
        `queued delivery ${event.id}.${webhookId}`,
      ]);
      await until(() => receiver.received.some((request) => request.answered === 200));
      await expect.poll(async () => (await delivery(organizationId, webhookId, event.id)).status).toBe("delivered");
      // A replay of the whole event re-delivers what was delivered, with the same webhook-id.
      expect(await admin("webhook", "replay", organizationId, "--event", event.id)).toEqual([
        `queued delivery ${event.id}.${webhookId}`,
        `queued event ${event.id} to 1 webhook(s)`,
      ]);
      await until(() => receiver.received.filter((request) => request.answered === 200).length === 2);
      const ids = new Set(receiver.received.map((request) => request.headers["webhook-id"]));
      expect([...ids]).toEqual([`${event.id}.${webhookId}`]);
    } finally {
      await receiver.close();
    }
  });
});
