import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import type { Firestore } from "@google-cloud/firestore";
import type { Message } from "@google-cloud/pubsub";
import type { BudgetEventData, BudgetEventType, EventDocument } from "@usage-ingestion/budgets";
import { DOCUMENT_PATHS } from "@usage-ingestion/shared";
import type { DeliveryTiming, SecretBox } from "@usage-ingestion/webhooks";
import {
  type DeliveryQueue,
  deliverWebhook,
  parseDeliveryMessage,
  pubsubDeliveryQueue,
} from "@usage-ingestion/webhooks";
import { pubsub, uniqueId } from "./harness.ts";

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  answered: number;
}

/**
 * A real HTTP receiver on loopback. `answer` decides each request's status (default 204); every request is
 * kept with the status it was answered.
 */
export async function startReceiver(answer: (request: Received, index: number) => number = () => 204) {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const entry: Received = { headers: request.headers, body: Buffer.concat(chunks).toString("utf8"), answered: 0 };
      entry.answered = answer(entry, received.length);
      received.push(entry);
      response.writeHead(entry.answered, { "content-type": "text/plain" }).end(entry.answered < 300 ? "ok" : "no");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/budget`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * A deliveries topic on the Pub/Sub emulator and the delivery function fed from it as Pub/Sub feeds it:
 * each message handed to `deliverWebhook`, acknowledged when it returns, redelivered when it throws. The
 * receivers are on this machine, as on the local stack.
 */
export async function deliveryPipeline(db: Firestore, box: SecretBox, timing: DeliveryTiming) {
  const [topic] = await pubsub().createTopic(uniqueId("webhook-deliveries"));
  const [subscription] = await topic.createSubscription(uniqueId("deliver"), { ackDeadlineSeconds: 30 });
  const queue: DeliveryQueue = pubsubDeliveryQueue(pubsub(), topic.name.split("/").pop() as string);
  const outcomes: string[] = [];
  subscription.on("message", (message: Message) => {
    const ref = parseDeliveryMessage(message.data.toString("base64"));
    if (!ref) return message.ack();
    deliverWebhook({ db, box, timing, receivers: "any" }, ref).then(
      (outcome) => {
        outcomes.push(outcome);
        message.ack();
      },
      () => {
        outcomes.push("retry");
        message.nack();
      },
    );
  });
  subscription.on("error", () => undefined);
  return { queue, outcomes, close: () => subscription.close() };
}

export function budgetEventData(organizationId: string, budgetId: string): BudgetEventData {
  return {
    budget_id: budgetId,
    budget_name: "Chat feature",
    organization_id: organizationId,
    scope: { customer: "customer-1", dimension: { name: "feature", value: "chat" } },
    period: { start: "2026-11-01T00:00:00.000Z", end: "2026-12-01T00:00:00.000Z" },
    amount_usd: "100.00",
    spent_usd: "80.123456789",
    percent: "80.12",
    threshold_percent: 80,
  };
}

/** An event in the outbox as the budget evaluation creates it (create precondition, deterministic id). */
export async function createEvent(
  db: Firestore,
  organizationId: string,
  options: { budgetId?: string; threshold?: number; type?: BudgetEventType; createdAt?: Date } = {},
): Promise<EventDocument> {
  const budgetId = options.budgetId ?? uniqueId("budget");
  const type = options.type ?? "budget.threshold_crossed";
  const id =
    type === "budget.threshold_crossed"
      ? `${budgetId}_20261101T000000Z_t${options.threshold ?? 80}`
      : `${budgetId}_20261101T000000Z_forecast`;
  const data = budgetEventData(organizationId, budgetId);
  if (type === "budget.forecast_exceeded") {
    delete data.threshold_percent;
    data.forecast_usd = "131.5";
  } else data.threshold_percent = options.threshold ?? 80;
  const event: EventDocument = {
    id,
    type,
    created_at: (options.createdAt ?? new Date()).toISOString(),
    data,
    dispatched_at: null,
  };
  await db.doc(DOCUMENT_PATHS.event(organizationId, id)).create(event);
  return event;
}

export async function until<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 20_000,
  everyMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
