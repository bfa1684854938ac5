import { randomBytes } from "node:crypto";
import type { Firestore } from "@google-cloud/firestore";
import { type ChangeContext, operatorChange, recordChange } from "@usage-ingestion/audit";
import { getOrganization } from "@usage-ingestion/organizations";
import { DOCUMENT_PATHS, NotFoundError, UserError } from "@usage-ingestion/shared";
import { checkIfMatch, etagOf } from "@usage-ingestion/shared/server";
import type { SecretBox } from "./secret-box.ts";
import { generateWebhookSecret, secretContext, secretPrefix, secretsInEffect } from "./signing.ts";
import {
  MAX_WEBHOOK_SECRETS,
  MAX_WEBHOOKS_PER_ORGANIZATION,
  type WebhookDocument,
  type WebhookSecretDocument,
} from "./webhook-documents.ts";
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "./webhook-events.ts";
import { MAX_DESCRIPTION_LENGTH, parseWebhookUrl } from "./webhook-input.ts";
import { isWebhookId, webhookView } from "./webhook-view.ts";

const missing = (organizationId: string, webhookId: string) =>
  new NotFoundError(`organization "${organizationId}" has no webhook "${webhookId}"`);
const target = (id: string) => ({ type: "webhook", id });
/** What an entry records of a webhook: its view, which holds no secret, without its version. */
const recorded = (webhook: WebhookDocument, now: Date) => {
  const { etag: _etag, ...view } = webhookView(webhook, now);
  return view;
};

const newWebhookId = () => `wh_${randomBytes(12).toString("base64url")}`;

function sealedSecret(box: SecretBox, organizationId: string, webhookId: string, now: Date) {
  const secret = generateWebhookSecret();
  const document: WebhookSecretDocument = {
    encrypted: box.seal(secret, secretContext(organizationId, webhookId)),
    prefix: secretPrefix(secret),
    created_at: now.toISOString(),
    expires_at: null,
  };
  return { secret, document };
}

/** Creates an active webhook with a fresh secret, returned once; at most MAX_WEBHOOKS_PER_ORGANIZATION. */
export async function createWebhook(
  db: Firestore,
  box: SecretBox,
  organizationId: string,
  options: { url: string; eventTypes?: WebhookEventType[]; description?: string; now?: Date; change?: ChangeContext },
): Promise<{ webhook: WebhookDocument; secret: string }> {
  await getOrganization(db, organizationId);
  const url = parseWebhookUrl(options.url);
  if ((options.description ?? "").length > MAX_DESCRIPTION_LENGTH) {
    throw new UserError(`the description is longer than ${MAX_DESCRIPTION_LENGTH} characters`);
  }
  const now = options.now ?? new Date();
  const id = newWebhookId();
  const { secret, document } = sealedSecret(box, organizationId, id, now);
  const webhook: WebhookDocument = {
    id,
    url,
    event_types: options.eventTypes ?? [...WEBHOOK_EVENT_TYPES],
    status: "active",
    created_at: now.toISOString(),
    description: options.description ?? null,
    secrets: [document],
  };
  const collection = db.collection(DOCUMENT_PATHS.webhooks(organizationId));
  // Counted and created in one transaction: two creations at once cannot pass the bound together.
  await db.runTransaction(async (transaction) => {
    const existing = await transaction.get(collection.limit(MAX_WEBHOOKS_PER_ORGANIZATION));
    if (existing.size >= MAX_WEBHOOKS_PER_ORGANIZATION) {
      throw new UserError(
        `organization "${organizationId}" has ${MAX_WEBHOOKS_PER_ORGANIZATION} webhooks, the most it may have`,
      );
    }
    transaction.create(collection.doc(id), webhook);
    recordChange(
      transaction,
      db,
      organizationId,
      options.change ?? operatorChange(),
      { action: "webhook.created", target: target(id), after: recorded(webhook, now) },
      now,
    );
  });
  return { webhook, secret };
}

export async function getWebhook(db: Firestore, organizationId: string, webhookId: string): Promise<WebhookDocument> {
  if (!isWebhookId(webhookId)) throw missing(organizationId, webhookId);
  const snap = await db.doc(DOCUMENT_PATHS.webhook(organizationId, webhookId)).get();
  if (!snap.exists) throw missing(organizationId, webhookId);
  return snap.data() as WebhookDocument;
}

export async function listWebhooks(db: Firestore, organizationId: string): Promise<WebhookDocument[]> {
  await getOrganization(db, organizationId);
  const snap = await db
    .collection(DOCUMENT_PATHS.webhooks(organizationId))
    .orderBy("created_at")
    .limit(MAX_WEBHOOKS_PER_ORGANIZATION)
    .get();
  return snap.docs.map((doc) => doc.data() as WebhookDocument);
}

/**
 * Deletes the webhook with its `webhook.deleted` entry (one transaction, `expectedEtag` checked in it),
 * then its deliveries and their attempts; its queued deliveries are dropped unsent.
 */
export async function deleteWebhook(
  db: Firestore,
  organizationId: string,
  webhookId: string,
  change: ChangeContext = operatorChange(),
  expectedEtag?: string,
  now = new Date(),
): Promise<void> {
  if (!isWebhookId(webhookId)) throw missing(organizationId, webhookId);
  const ref = db.doc(DOCUMENT_PATHS.webhook(organizationId, webhookId));
  await db.runTransaction(async (transaction) => {
    const snap = await transaction.get(ref);
    if (!snap.exists) throw missing(organizationId, webhookId);
    const stored = snap.data() as WebhookDocument;
    checkIfMatch(expectedEtag, etagOf(stored), `webhook ${webhookId}`);
    transaction.delete(ref);
    const before = recorded(stored, now);
    recordChange(
      transaction,
      db,
      organizationId,
      change,
      { action: "webhook.deleted", target: target(webhookId), before },
      now,
    );
  });
  // Deliveries are many and outside any bound a transaction takes: they go after the webhook itself, which
  // the delivery function reads first (a delivery of a webhook that is gone is dropped).
  await db.recursiveDelete(ref);
}

export const DEFAULT_OVERLAP_MS = 24 * 3_600_000;
export const MAX_OVERLAP_MS = 7 * 24 * 3_600_000;

/**
 * A new secret, returned once. The secrets in effect until now keep signing for `overlapMs` (both
 * signatures go out meanwhile, so receivers can switch at their pace), then only the new one signs.
 */
export async function rotateWebhookSecret(
  db: Firestore,
  box: SecretBox,
  organizationId: string,
  webhookId: string,
  options: { overlapMs?: number; now?: Date; change?: ChangeContext; expectedEtag?: string } = {},
): Promise<{ secret: string; previousExpireAt: string; webhook: WebhookDocument }> {
  if (!isWebhookId(webhookId)) throw missing(organizationId, webhookId);
  const now = options.now ?? new Date();
  const overlapMs = options.overlapMs ?? DEFAULT_OVERLAP_MS;
  const expiresAt = new Date(now.getTime() + overlapMs).toISOString();
  const ref = db.doc(DOCUMENT_PATHS.webhook(organizationId, webhookId));
  const { secret, document } = sealedSecret(box, organizationId, webhookId, now);
  const webhook = await db.runTransaction(async (transaction) => {
    const snap = await transaction.get(ref);
    if (!snap.exists) throw missing(organizationId, webhookId);
    const stored = snap.data() as WebhookDocument;
    checkIfMatch(options.expectedEtag, etagOf(stored), `webhook ${webhookId}`);
    const previous = secretsInEffect(stored.secrets, now)
      .map((kept) => ({
        ...kept,
        expires_at:
          kept.expires_at === null || Date.parse(kept.expires_at) > Date.parse(expiresAt) ? expiresAt : kept.expires_at,
      }))
      .filter((kept) => kept.expires_at === null || Date.parse(kept.expires_at) > now.getTime());
    // A secret still in its overlap is never dropped early: receivers were promised it until then.
    if (previous.length + 1 > MAX_WEBHOOK_SECRETS) {
      const until = previous.map((kept) => kept.expires_at as string).sort()[0];
      throw new UserError(
        `webhook "${webhookId}" has ${previous.length} secrets still signing (the most is ${MAX_WEBHOOK_SECRETS}); rotate again after ${until}, or with --overlap-hours 0 to end their overlap now`,
      );
    }
    transaction.update(ref, { secrets: [document, ...previous] });
    const rotated: WebhookDocument = { ...stored, secrets: [document, ...previous] };
    // The entry says which secrets sign before and after (their prefixes and times), never a secret.
    recordChange(
      transaction,
      db,
      organizationId,
      options.change ?? operatorChange(),
      {
        action: "webhook.secret_rotated",
        target: target(webhookId),
        before: recorded(stored, now),
        after: recorded(rotated, now),
      },
      now,
    );
    return rotated;
  });
  return { secret, previousExpireAt: expiresAt, webhook };
}

/** What `PATCH .../webhooks/{id}` may change (already parsed: parseWebhookUrl, parseEventTypes). */
export interface WebhookChange {
  url?: string;
  eventTypes?: WebhookEventType[];
  status?: WebhookDocument["status"];
}

/**
 * Changes the fields given, with its entry (`webhook.disabled`, `webhook.enabled` for a status alone, else
 * `webhook.updated`) in the same transaction; `expectedEtag` (If-Match) checked in it.
 */
export async function updateWebhook(
  db: Firestore,
  organizationId: string,
  webhookId: string,
  fields: WebhookChange,
  change: ChangeContext = operatorChange(),
  expectedEtag?: string,
  now = new Date(),
): Promise<WebhookDocument> {
  if (!isWebhookId(webhookId)) throw missing(organizationId, webhookId);
  const url = fields.url === undefined ? undefined : parseWebhookUrl(fields.url);
  const ref = db.doc(DOCUMENT_PATHS.webhook(organizationId, webhookId));
  return db.runTransaction(async (transaction) => {
    const snap = await transaction.get(ref);
    if (!snap.exists) throw missing(organizationId, webhookId);
    const stored = snap.data() as WebhookDocument;
    checkIfMatch(expectedEtag, etagOf(stored), `webhook ${webhookId}`);
    const given = {
      ...(url !== undefined ? { url } : {}),
      ...(fields.eventTypes !== undefined ? { event_types: fields.eventTypes } : {}),
      ...(fields.status !== undefined ? { status: fields.status } : {}),
    };
    const after: WebhookDocument = { ...stored, ...given };
    transaction.update(ref, given);
    const statusOnly = Object.keys(given).length === 1 && fields.status !== undefined;
    const action = statusOnly
      ? fields.status === "disabled"
        ? "webhook.disabled"
        : "webhook.enabled"
      : "webhook.updated";
    recordChange(
      transaction,
      db,
      organizationId,
      change,
      { action, target: target(webhookId), before: recorded(stored, now), after: recorded(after, now) },
      now,
    );
    return after;
  });
}

export async function setWebhookStatus(
  db: Firestore,
  organizationId: string,
  webhookId: string,
  status: WebhookDocument["status"],
  change: ChangeContext = operatorChange(),
) {
  await updateWebhook(db, organizationId, webhookId, { status }, change);
}
