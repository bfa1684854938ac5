import type { Firestore } from "@google-cloud/firestore";
import { COLLECTIONS, DOCUMENT_PATHS, UserError } from "@usage-ingestion/shared";
import type { DeliveryAttemptDocument, DeliveryDocument } from "./webhook-documents.ts";
import { getWebhook } from "./webhook-store.ts";
import { isDocumentId } from "./webhook-view.ts";

export const MAX_LISTED_DELIVERIES = 500;
export const MAX_LISTED_ATTEMPTS = 200;

/** A webhook's latest deliveries (newest first), each with its attempts (oldest first); both bounded. */
export async function listDeliveries(
  db: Firestore,
  organizationId: string,
  webhookId: string,
  options: { limit: number; eventId?: string; after?: string },
): Promise<Array<{ delivery: DeliveryDocument; attempts: DeliveryAttemptDocument[] }>> {
  await getWebhook(db, organizationId, webhookId);
  const collection = db.collection(DOCUMENT_PATHS.webhookDeliveries(organizationId, webhookId));
  const limit = Math.min(options.limit, MAX_LISTED_DELIVERIES);
  let query = collection.orderBy("created_at", "desc");
  // A page after a delivery given back as the previous page's last (the management API's page_token).
  if (options.after !== undefined) {
    const last = isDocumentId(options.after) ? await collection.doc(options.after).get() : undefined;
    if (!last?.exists) throw new UserError("page_token is not one this service gave");
    query = query.startAfter(last);
  }
  const docs = options.eventId
    ? [await collection.doc(options.eventId).get()].filter((doc) => doc.exists)
    : (await query.limit(limit).get()).docs;
  return Promise.all(
    docs.map(async (doc) => {
      const attempts = await doc.ref
        .collection(COLLECTIONS.webhookAttempts)
        .orderBy("attempted_at")
        .limit(MAX_LISTED_ATTEMPTS)
        .get();
      return {
        delivery: doc.data() as DeliveryDocument,
        attempts: attempts.docs.map((attempt) => attempt.data() as DeliveryAttemptDocument),
      };
    }),
  );
}
