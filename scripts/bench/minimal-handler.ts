import { Firestore } from "@google-cloud/firestore";
import * as functions from "@google-cloud/functions-framework";
import { MINIMAL_COLLECTION } from "./context.ts";

/**
 * The worker's yardstick, never a product path: a push handler that only parses the queue envelope and
 * writes one Firestore document, under the same functions framework and emulators as the cost worker.
 */
const db = new Firestore({ projectId: process.env.GOOGLE_CLOUD_PROJECT });

interface Pushed {
  message?: { data?: string; messageId?: string };
}

functions.cloudEvent("minimal", async (event: functions.CloudEvent<Pushed>) => {
  const message = event.data?.message;
  const envelope = JSON.parse(Buffer.from(message?.data ?? "", "base64").toString("utf8"));
  await db.collection(MINIMAL_COLLECTION).doc(String(message?.messageId)).set(envelope);
});
