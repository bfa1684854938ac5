import type { Firestore } from "@google-cloud/firestore";
import { ConflictError } from "@usage-ingestion/shared";
import {
  createWebhook,
  type DeliveryQueue,
  deleteWebhook,
  listDeliveries,
  listWebhooks,
  MAX_OVERLAP_MS,
  replayDelivery,
  rotateWebhookSecret,
  type SecretBox,
  updateWebhook,
  WEBHOOK_EVENT_TYPES,
  webhookView,
} from "@usage-ingestion/webhooks";
import type { Request, Response } from "express";
import * as v from "valibot";
import { ifMatch } from "../../http/etag.ts";
import { listBody, pageOf, pageQuery } from "../../http/paging.ts";
import { validated } from "../../http/validated.ts";
import { changeOf, organizationOf } from "./change-context.ts";

/** What the webhook routes need beyond the records: absent, creating or rotating a secret is refused. */
export interface WebhookDeps {
  /** Seals secrets (WEBHOOK_SECRET_KEY); absent, 409 on create and rotate-secret, saying why. */
  box?: SecretBox;
  /** The deliveries topic, where a replay is queued. */
  queue: DeliveryQueue;
}

const url = v.pipe(
  v.string("must be a string"),
  v.minLength(1, "must not be empty"),
  v.maxLength(2048, "must be at most 2048 characters"),
);
const events = v.pipe(
  v.array(v.picklist(WEBHOOK_EVENT_TYPES, `must be one of ${WEBHOOK_EVENT_TYPES.join(", ")}`), "must be a list"),
  v.minLength(1, "must name at least one event type"),
  v.maxLength(WEBHOOK_EVENT_TYPES.length, `must hold at most ${WEBHOOK_EVENT_TYPES.length} types`),
);
const description = v.pipe(v.string("must be a string"), v.maxLength(256, "must be at most 256 characters"));
/** The bodies the routes take, exported for /openapi.json. */
export const WebhookCreateSchema = v.strictObject(
  { url, events: v.optional(events), description: v.optional(description) },
  "holds an unknown field",
);
export const WebhookUpdateSchema = v.strictObject(
  {
    url: v.optional(url),
    events: v.optional(events),
    status: v.optional(v.picklist(["active", "disabled"], "must be active or disabled")),
  },
  "holds an unknown field",
);
export const WebhookRotateSchema = v.strictObject(
  {
    overlap_hours: v.optional(
      v.pipe(
        v.number("must be a number"),
        v.integer("must be whole hours"),
        v.minValue(0, "must be at least 0"),
        v.maxValue(MAX_OVERLAP_MS / 3_600_000, `must be at most ${MAX_OVERLAP_MS / 3_600_000}`),
      ),
    ),
  },
  "holds an unknown field",
);

const sealing = (deps: WebhookDeps): SecretBox => {
  if (deps.box) return deps.box;
  throw new ConflictError(
    "this deployment has no WEBHOOK_SECRET_KEY, so it cannot create or rotate webhook secrets; ask its operator",
  );
};

const unique = <T>(list: T[] | undefined) => (list ? [...new Set(list)] : undefined);

/** `GET /v1/orgs/{org}/webhooks` (viewer): each webhook, never a secret. */
export function listWebhooksRoute(db: Firestore) {
  return async (req: Request, res: Response) => {
    const page = pageQuery(req, res);
    if (!page) return;
    const { items, nextPageToken } = pageOf(
      (await listWebhooks(db, organizationOf(res))).map((webhook) => webhookView(webhook)),
      page,
    );
    res.status(200).json(listBody("webhooks", items, nextPageToken));
  };
}

/** `POST /v1/orgs/{org}/webhooks` (admin): 201 with the signing secret, the only time it is shown. */
export function createWebhookRoute(db: Firestore, deps: WebhookDeps) {
  return async (req: Request, res: Response) => {
    const body = validated(res, WebhookCreateSchema, req.body);
    if (!body) return;
    const { webhook, secret } = await createWebhook(db, sealing(deps), organizationOf(res), {
      url: body.url,
      ...(body.events ? { eventTypes: unique(body.events) } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
      change: changeOf(res),
    });
    res.set("Cache-Control", "no-store");
    res.status(201).json({ webhook: webhookView(webhook), secret });
  };
}

/** `PATCH /v1/orgs/{org}/webhooks/{id}` (admin): `url`, `events`, `status`, honouring If-Match. */
export function updateWebhookRoute(db: Firestore) {
  return async (req: Request, res: Response) => {
    const body = validated(res, WebhookUpdateSchema, req.body);
    if (!body) return;
    const change = {
      ...(body.url !== undefined ? { url: body.url } : {}),
      ...(body.events ? { eventTypes: unique(body.events) } : {}),
      ...(body.status ? { status: body.status } : {}),
    };
    const webhook = await updateWebhook(
      db,
      organizationOf(res),
      String(req.params.id),
      change,
      changeOf(res),
      ifMatch(req),
    );
    res.status(200).json(webhookView(webhook));
  };
}

/** `DELETE /v1/orgs/{org}/webhooks/{id}` (admin), honouring If-Match: with its deliveries. */
export function deleteWebhookRoute(db: Firestore) {
  return async (req: Request, res: Response) => {
    await deleteWebhook(db, organizationOf(res), String(req.params.id), changeOf(res), ifMatch(req));
    res.status(204).end();
  };
}

/** `POST .../webhooks/{id}/rotate-secret` (admin): `{ overlap_hours? }`; the new secret, shown once. */
export function rotateSecretRoute(db: Firestore, deps: WebhookDeps) {
  return async (req: Request, res: Response) => {
    const body = validated(res, WebhookRotateSchema, req.body);
    if (!body) return;
    const rotated = await rotateWebhookSecret(db, sealing(deps), organizationOf(res), String(req.params.id), {
      ...(body.overlap_hours !== undefined ? { overlapMs: body.overlap_hours * 3_600_000 } : {}),
      change: changeOf(res),
      ...(ifMatch(req) !== undefined ? { expectedEtag: ifMatch(req) } : {}),
    });
    res.set("Cache-Control", "no-store");
    res.status(200).json({
      webhook: webhookView(rotated.webhook),
      secret: rotated.secret,
      previous_expire_at: rotated.previousExpireAt,
    });
  };
}

/** `GET .../webhooks/{id}/deliveries` (viewer): newest first, each with every attempt (oldest first). */
export function listDeliveriesRoute(db: Firestore) {
  return async (req: Request, res: Response) => {
    const page = pageQuery(req, res);
    if (!page) return;
    const listed = await listDeliveries(db, organizationOf(res), String(req.params.id), {
      limit: page.limit + 1,
      ...(page.pageToken ? { after: page.pageToken } : {}),
    });
    const shown = listed.slice(0, page.limit);
    const deliveries = shown.map(({ delivery, attempts }) => {
      const { leased_until: _lease, sweep_at: _sweep, ...rest } = delivery;
      return { ...rest, attempts };
    });
    const last = shown.at(-1);
    res
      .status(200)
      .json(
        listBody("deliveries", deliveries, listed.length > page.limit && last ? last.delivery.event_id : undefined),
      );
  };
}

/** `POST .../deliveries/{delivery_id}/replay` (admin): queues it again, same `webhook-id`. */
export function replayDeliveryRoute(db: Firestore, deps: WebhookDeps) {
  return async (req: Request, res: Response) => {
    const webhookId = String(req.params.id);
    // Either the delivery's `id` (`<event>.<webhook>`) or its `event_id`, both as the listing gives them.
    const given = String(req.params.delivery_id);
    const eventId = given.endsWith(`.${webhookId}`) ? given.slice(0, -webhookId.length - 1) : given;
    const id = await replayDelivery(
      { db, queue: deps.queue, change: changeOf(res) },
      organizationOf(res),
      webhookId,
      eventId,
    );
    res.status(202).json({ delivery_id: id, status: "queued" });
  };
}
