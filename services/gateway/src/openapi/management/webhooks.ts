import { WEBHOOK_EVENT_TYPES } from "@usage-ingestion/webhooks";
import type { JsonSchema } from "@valibot/to-json-schema";
import { WebhookCreateSchema, WebhookRotateSchema, WebhookUpdateSchema } from "../../routes/v1/webhooks.ts";
import {
  body,
  changeErrors,
  errors,
  ifMatchParameter,
  json,
  keyOrSession,
  listOf,
  noContent,
  type OpenApiPart,
  orgParameter,
  orNull,
  pageParameters,
  pathParameter,
  readErrors,
  ref,
  time,
} from "./operations.ts";

const text = { type: "string" } as const;

/** A webhook as webhookView (packages/webhooks) answers it: never a secret, only the signing ones' prefixes. */
const webhook: JsonSchema = {
  type: "object",
  properties: {
    id: { type: "string", description: "`wh_...`." },
    url: text,
    events: { type: "array", items: { type: "string", enum: [...WEBHOOK_EVENT_TYPES] } },
    status: { type: "string", enum: ["active", "disabled"] },
    description: text,
    created_at: time,
    signing: {
      type: "array",
      description: "The secrets signing now (two during a rotation's overlap), by their first characters.",
      items: {
        type: "object",
        properties: { prefix: text, created_at: time, expires_at: orNull(time) },
        required: ["prefix", "created_at"],
      },
    },
    etag: { type: "string", description: "The webhook's version, for `If-Match`." },
  },
  required: ["id", "url", "events", "status", "created_at", "signing", "etag"],
};

/** A webhook with its new secret: the only answer that ever holds the secret. */
const withSecret = (extra: Record<string, object> = {}) => ({
  type: "object",
  properties: {
    webhook: ref("Webhook"),
    secret: { type: "string", pattern: "^whsec_", description: "`whsec_...`: shown this once, never again." },
    ...extra,
  },
  required: ["webhook", "secret"],
});

/** One delivery (an event for one webhook) with every attempt, oldest first, as `admin webhook deliveries`. */
const delivery: JsonSchema = {
  type: "object",
  properties: {
    id: { type: "string", description: "`<event id>.<webhook id>`, the `webhook-id` header of every attempt." },
    event_id: text,
    event_type: { type: "string", enum: [...WEBHOOK_EVENT_TYPES] },
    status: { type: "string", enum: ["pending", "delivered", "failed"] },
    created_at: time,
    attempt_count: { type: "integer" },
    last_status_code: orNull({ type: "integer" }),
    last_error: orNull(text),
    delivered_at: orNull(time),
    failed_at: orNull(time),
    attempts: {
      type: "array",
      items: {
        type: "object",
        properties: {
          attempted_at: time,
          status_code: orNull({ type: "integer" }),
          error: orNull(text),
          duration_ms: { type: "integer" },
          response_excerpt: orNull(text),
        },
        required: ["attempted_at", "status_code", "error", "duration_ms"],
      },
    },
  },
  required: ["id", "event_id", "event_type", "status", "created_at", "attempts"],
};

const noKey = json(
  ref("ErrorResponse"),
  "`conflict`: this deployment has no WEBHOOK_SECRET_KEY, so it cannot seal a secret (docs/management-api.md).",
);
const webhooks = "/v1/orgs/{org}/webhooks";
const webhookId = pathParameter("id", "The webhook's id (`wh_...`).");

/** `/v1/orgs/{org}/webhooks` (routes/v1/webhooks.ts): budget-event webhooks and their deliveries. */
export const webhooksPart: OpenApiPart = {
  schemas: { Webhook: webhook, WebhookDelivery: delivery },
  paths: {
    [webhooks]: {
      get: {
        summary: "The organization's webhooks, never a secret (viewer).",
        security: keyOrSession.read,
        parameters: [orgParameter, ...pageParameters],
        responses: {
          "200": json(listOf("webhooks", ref("Webhook")), "A page of webhooks."),
          ...errors.badQuery,
          ...readErrors,
        },
      },
      post: {
        summary: "Creates a webhook; the answer holds its signing secret, shown once (admin).",
        description: "`events` defaults to every budget event type. The answer is never cached.",
        security: keyOrSession.change,
        parameters: [orgParameter],
        requestBody: body(WebhookCreateSchema),
        responses: { "201": json(withSecret(), "The webhook and its secret."), ...changeErrors, "409": noKey },
      },
    },
    [`${webhooks}/{id}`]: {
      patch: {
        summary: "Changes `url`, `events` or `status` (admin), honouring If-Match.",
        description: "A disabled webhook gets no new deliveries and its pending ones end `failed`.",
        security: keyOrSession.change,
        parameters: [orgParameter, webhookId, ifMatchParameter],
        requestBody: body(WebhookUpdateSchema),
        responses: { "200": json(ref("Webhook"), "The webhook as stored now."), ...changeErrors, ...errors.conflict },
      },
      delete: {
        summary: "Deletes the webhook with its deliveries (admin), honouring If-Match.",
        security: keyOrSession.change,
        parameters: [orgParameter, webhookId, ifMatchParameter],
        responses: { "204": noContent("Deleted."), ...readErrors, ...errors.forbidden, ...errors.conflict },
      },
    },
    [`${webhooks}/{id}/rotate-secret`]: {
      post: {
        summary: "Makes a new signing secret, shown once; the ones in effect keep signing for the overlap (admin).",
        description:
          "`overlap_hours` defaults to 24; `0` stops the old secrets at once. The body may be empty. " +
          "If-Match is honoured. The answer is never cached.",
        security: keyOrSession.change,
        parameters: [orgParameter, webhookId, ifMatchParameter],
        requestBody: { ...body(WebhookRotateSchema), required: false },
        responses: {
          "200": json(
            withSecret({ previous_expire_at: orNull(time) }),
            "The webhook, its new secret, and when the previous ones stop signing.",
          ),
          ...changeErrors,
          "409": json(ref("ErrorResponse"), "`conflict`: a stale `If-Match`, or no WEBHOOK_SECRET_KEY here."),
        },
      },
    },
    [`${webhooks}/{id}/deliveries`]: {
      get: {
        summary: "The webhook's deliveries, newest first, each with every attempt (viewer).",
        security: keyOrSession.read,
        parameters: [orgParameter, webhookId, ...pageParameters],
        responses: {
          "200": json(listOf("deliveries", ref("WebhookDelivery")), "A page of deliveries."),
          ...errors.badQuery,
          ...readErrors,
        },
      },
    },
    [`${webhooks}/{id}/deliveries/{delivery_id}/replay`]: {
      post: {
        summary: "Queues one delivery again, with the same `webhook-id` (admin).",
        security: keyOrSession.change,
        parameters: [
          orgParameter,
          webhookId,
          pathParameter("delivery_id", "The delivery's `id` or its `event_id`, as the listing gives them."),
        ],
        responses: {
          "202": json(
            {
              type: "object",
              properties: { delivery_id: text, status: { type: "string", enum: ["queued"] } },
              required: ["delivery_id", "status"],
            },
            "Queued.",
          ),
          ...readErrors,
          ...errors.forbidden,
        },
      },
    },
  },
};
