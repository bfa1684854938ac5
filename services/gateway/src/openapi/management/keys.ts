import { ApiKeyCreateSchema, ApiKeyUpdateSchema, type ApiKeyView, KEY_SCOPES } from "@usage-ingestion/organizations";
import * as v from "valibot";
import { jsonSchemaOf } from "../json-schema.ts";
import {
  body,
  changeErrors,
  errors,
  json,
  keyOrSession,
  listOf,
  type OpenApiPart,
  orgParameter,
  pageParameters,
  pathParameter,
  readErrors,
  ref,
} from "./operations.ts";

/** A key as the routes answer it, tied to the type they answer with, so the two cannot drift apart. */
const ApiKeySchema = v.object({
  id: v.string(),
  name: v.nullable(v.string()),
  prefix: v.pipe(v.string(), v.description("The key's first characters, as `admin key list` shows them.")),
  scope: v.picklist(KEY_SCOPES),
  status: v.picklist(["active", "disabled"]),
  created_at: v.string(),
  created_by: v.nullable(v.object({ type: v.string(), id: v.string() })),
  last_used_at: v.pipe(v.nullable(v.string()), v.description("May lag by minutes.")),
});
export const apiKeySchemaMatches: [ApiKeyView] extends [v.InferOutput<typeof ApiKeySchema>]
  ? [v.InferOutput<typeof ApiKeySchema>] extends [ApiKeyView]
    ? true
    : false
  : false = true;

const keys = "/v1/orgs/{org}/api-keys";

/** `/v1/orgs/{org}/api-keys` (routes/v1/api-keys-*.ts). */
export const keysPart: OpenApiPart = {
  schemas: { ApiKey: jsonSchemaOf(ApiKeySchema) },
  paths: {
    [keys]: {
      get: {
        summary: "The organization's API keys, by id; never a secret (viewer).",
        security: keyOrSession.read,
        parameters: [orgParameter, ...pageParameters],
        responses: {
          "200": json(listOf("api_keys", ref("ApiKey")), "A page of keys."),
          ...errors.badQuery,
          ...readErrors,
        },
      },
      post: {
        summary: "Creates a key (admin); its secret is in this answer only, never shown again.",
        security: keyOrSession.change,
        parameters: [orgParameter],
        requestBody: body(ApiKeyCreateSchema),
        responses: {
          "201": json(
            {
              type: "object",
              properties: { api_key: ref("ApiKey"), secret: { type: "string", description: "`usk_...`, shown once." } },
              required: ["api_key", "secret"],
            },
            "The key, and its secret.",
          ),
          ...changeErrors,
        },
      },
    },
    [`${keys}/{id}`]: {
      patch: {
        summary: "Disables or enables a key, or renames it (admin).",
        description:
          "A disabled key is refused everywhere within the key cache's time (KEY_CACHE_TTL_MS, 10 s by " +
          "default), as after `admin key disable`.",
        security: keyOrSession.change,
        parameters: [orgParameter, pathParameter("id", "The key's id (`key_...`).")],
        requestBody: body(ApiKeyUpdateSchema),
        responses: { "200": json(ref("ApiKey"), "The key as changed."), ...changeErrors },
      },
    },
  },
};
