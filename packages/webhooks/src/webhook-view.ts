import { etagOf } from "@usage-ingestion/shared/server";
import { secretsInEffect } from "./signing.ts";
import type { WebhookDocument } from "./webhook-documents.ts";

/** Ids a webhook may have (wh_ + base64url); anything else from a URL names none and never reaches a path. */
export const isWebhookId = (id: string) => /^[A-Za-z0-9_-]{1,64}$/.test(id) && !/^__.*__$/.test(id);

/** A document id Firestore accepts (not `.`, `..`, `__x__`, no `/`): anything else from a URL names none. */
export const isDocumentId = (id: string) => id.length > 0 && id.length <= 1500 && !/^\.\.?$|^__.*__$|\//.test(id);

/**
 * A webhook as the management API and the audit log show it: never a secret, only the prefixes of the
 * secrets signing now (to tell them apart), and its `etag` (a digest of the whole stored document, so a
 * rotation is a new version too; a digest does not reveal what it digests).
 */
export function webhookView(webhook: WebhookDocument, now = new Date()) {
  return {
    id: webhook.id,
    url: webhook.url,
    events: webhook.event_types,
    status: webhook.status,
    description: webhook.description,
    created_at: webhook.created_at,
    // Which secrets sign now, told apart by their first characters after `whsec_` (as `admin webhook list`).
    signing: secretsInEffect(webhook.secrets, now).map((secret) => ({
      prefix: secret.prefix,
      created_at: secret.created_at,
      expires_at: secret.expires_at,
    })),
    etag: etagOf(webhook),
  };
}
export type WebhookView = ReturnType<typeof webhookView>;
