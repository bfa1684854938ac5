import { PageQuerySchema } from "@usage-ingestion/shared";
import type { JsonSchema } from "@valibot/to-json-schema";
import type * as v from "valibot";
import { CSRF_HEADER } from "../../auth/session/csrf.ts";
import { jsonSchemaOf } from "../json-schema.ts";

/**
 * What the management API's route groups share in /openapi.json: each group (keys.ts, prices.ts, ...)
 * gives its paths and schemas as an OpenApiPart, built from the Valibot schemas its routes validate with.
 */
export interface OpenApiPart {
  paths: Record<string, Record<string, object>>;
  schemas?: Record<string, JsonSchema>;
}

/** A date-time string, and a schema that may also be null: the shapes every part's resources share. */
export const time = { type: "string", format: "date-time" } as const;
export const orNull = (schema: object) => ({ anyOf: [schema, { type: "null" }] });

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const json = (schema: object, description: string) => ({
  description,
  content: { "application/json": { schema } },
});
export const noContent = (description: string) => ({ description });

/** A request body as the route validates it: the route's own schema, converted. */
export const body = (schema: v.GenericSchema) => ({
  required: true,
  content: { "application/json": { schema: jsonSchemaOf(schema) } },
});

export const securitySchemes = {
  adminKey: {
    type: "apiKey",
    in: "header",
    name: "X-Api-Key",
    description: "A key of scope `admin`: the role `admin` in its own organization.",
  },
  session: {
    type: "apiKey",
    in: "cookie",
    name: "__Host-usage_session",
    description:
      "A person's session, set by GET /auth/callback (`usage_session` on the local stack's plain HTTP); " +
      "their role is their membership's.",
  },
  csrfToken: {
    type: "apiKey",
    in: "header",
    name: CSRF_HEADER,
    description:
      "With a session, every change carries the token GET /v1/me answers in this header, and an `Origin` " +
      "equal to the gateway's own.",
  },
};

/** Who may call: an admin key or a session; a change made with a session also carries the CSRF token. */
export const keyOrSession = {
  read: [{ adminKey: [] }, { session: [] }],
  change: [{ adminKey: [] }, { session: [], csrfToken: [] }],
};
/** People only (members, /v1/me, sign-out). */
export const sessionOnly = { read: [{ session: [] }], change: [{ session: [], csrfToken: [] }] };

const error = (description: string) => json(ref("ErrorResponse"), description);

/** The error envelope's statuses, each as the management API answers it. */
export const errors = {
  badQuery: { "400": error("`validation_error`: a query parameter is invalid; `details[].field` names it.") },
  badBody: {
    "400": error(
      "`invalid_json` (not JSON, or not Content-Type application/json) or `validation_error` (`details` lists " +
        "every field error; an unknown field is refused by name).",
    ),
  },
  unauthorized: { "401": error("`unauthorized`: no or a bad session or key, or a key of another scope.") },
  forbidden: {
    "403": error("`forbidden`: the caller's role may not do this, or a session's change lacks its CSRF token."),
  },
  notFound: {
    "404": error("`not_found`: no such resource, or an organization the caller is not a member of (never told)."),
  },
  conflict: { "409": error("`conflict`: a duplicate, the last owner, or a stale `If-Match`.") },
  rateLimited: { "429": error("`rate_limited`: retry after `Retry-After` seconds.") },
};

/** What every route under /v1/orgs/{org} may answer besides its own outcome. */
export const readErrors = { ...errors.unauthorized, ...errors.notFound, ...errors.rateLimited };
export const changeErrors = { ...errors.badBody, ...readErrors, ...errors.forbidden };

export const pathParameter = (name: string, description: string) => ({
  name,
  in: "path",
  required: true,
  description,
  schema: { type: "string" },
});
export const orgParameter = pathParameter("org", "The organization's id.");

/** `limit` and `page_token`, from the schema the list routes validate their query with. */
export const pageParameters = Object.entries(PageQuerySchema.entries).map(([name, schema]) => {
  const { description, ...rest } = jsonSchemaOf(schema as v.GenericSchema) as JsonSchema & { description?: string };
  return { name, in: "query", required: false, description, schema: rest };
});

export const ifMatchParameter = {
  name: "If-Match",
  in: "header",
  required: false,
  description: "The resource's `etag` as last read: a stale one is 409 `conflict`; none, no check.",
  schema: { type: "string" },
};

/** A list's answer: `{ "<plural>": [...], "next_page_token"?: string }`. */
export const listOf = (plural: string, item: object) => ({
  type: "object",
  properties: {
    [plural]: { type: "array", items: item },
    next_page_token: { type: "string", description: "Give it as `page_token` for the next page; absent on the last." },
  },
  required: [plural],
});
