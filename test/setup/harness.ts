import { randomUUID } from "node:crypto";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Firestore } from "@google-cloud/firestore";
import { type Message, PubSub } from "@google-cloud/pubsub";
import { createApiKey, createOrganization, setOrganizationStatus } from "@usage-ingestion/organizations";
import type { Express } from "express";

/** Clients on the emulators the global setup started (see emulator-env.ts). */
let firestoreClient: Firestore | undefined;
let pubsubClient: PubSub | undefined;
let reportsClient: Firestore | undefined;
export const firestore = () => {
  firestoreClient ??= new Firestore({ projectId: process.env.GOOGLE_CLOUD_PROJECT });
  return firestoreClient;
};
/** The reports read integers as BigInt, as the gateway's reports client does. */
export const reportsFirestore = () => {
  reportsClient ??= new Firestore({ projectId: process.env.GOOGLE_CLOUD_PROJECT, useBigInt: true });
  return reportsClient;
};
/** Records and keys in the one emulator database, as the local stack keeps them. */
export const databases = () => ({ records: firestore(), keys: firestore() });
export const pubsub = () => {
  pubsubClient ??= new PubSub({ projectId: process.env.GOOGLE_CLOUD_PROJECT });
  return pubsubClient;
};

export const uniqueId = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;

/** A fresh organization with one active key; each test makes its own. */
export async function seedOrganization(options: { organizationDisabled?: boolean } = {}) {
  const organizationId = uniqueId("org");
  await createOrganization(firestore(), organizationId, "Test organization");
  const { key, prefix } = await createApiKey(databases(), organizationId);
  const { key: readKey } = await createApiKey(databases(), organizationId, undefined, undefined, "read");
  if (options.organizationDisabled) await setOrganizationStatus(firestore(), organizationId, "disabled");
  return { organizationId, apiKey: key, keyPrefix: prefix, readKey };
}

/** A topic with a pull subscription, to read back what was published. */
export async function pullableTopic() {
  const [topic] = await pubsub().createTopic(uniqueId("usage"));
  const [created] = await topic.createSubscription(uniqueId("pull"));
  return {
    topicName: topic.name.split("/").pop() as string,
    /**
     * Streams until `count` messages arrived (acknowledging them) or the time is up. The time is past the
     * subscription's 10 s ack deadline: a message handed to the previous pull's stream as it closed can be
     * delivered again only once that deadline has passed.
     */
    pull(count: number, timeoutMs = 25_000) {
      const received: Array<{ id: string; data: unknown; attributes: Record<string, string> }> = [];
      // A closed subscriber cannot be reopened: each pull opens its own.
      const subscription = pubsub().subscription(created.name);
      return new Promise<typeof received>((resolve, reject) => {
        const finish = () => {
          clearTimeout(timer);
          subscription.removeAllListeners();
          subscription.close().then(() => resolve(received), reject);
        };
        const timer = setTimeout(finish, timeoutMs);
        subscription.on("error", reject);
        subscription.on("message", (message: Message) => {
          message.ack();
          received.push({
            id: message.id,
            data: JSON.parse(message.data.toString("utf8")),
            attributes: message.attributes,
          });
          if (received.length >= count) finish();
        });
      });
    },
  };
}

/** Serves an app on a free port; the test talks to it over real HTTP. */
export async function serve(app: Express, prepare?: (server: Server) => void) {
  const server = app.listen(0, "127.0.0.1");
  prepare?.(server);
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A port nothing listens on, for a dependency that is down. */
export { freePort as freeClosedPort } from "../../scripts/lib/processes.ts";
