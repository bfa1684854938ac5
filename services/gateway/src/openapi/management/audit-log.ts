import type { AuditEntry } from "@usage-ingestion/audit";
import * as v from "valibot";
import { jsonSchemaOf } from "../json-schema.ts";
import {
  errors,
  json,
  keyOrSession,
  listOf,
  type OpenApiPart,
  orgParameter,
  pageParameters,
  readErrors,
  ref,
} from "./operations.ts";

/** One entry as the audit package keeps it; tied to its type so the document cannot drift from it. */
const AuditEntrySchema = v.object({
  id: v.string(),
  at: v.pipe(v.string(), v.description("RFC 3339, UTC.")),
  actor: v.object({ type: v.picklist(["user", "api_key", "operator"]), id: v.string() }),
  action: v.pipe(v.string(), v.description("`<resource>.<verb>`: `api_key.created`, `price.deleted`, ...")),
  target: v.object({ type: v.string(), id: v.string() }),
  changes: v.optional(v.object({ before: v.unknown(), after: v.unknown() })),
  request_id: v.string(),
});
export const auditEntrySchemaMatches: [AuditEntry] extends [v.InferOutput<typeof AuditEntrySchema>]
  ? [v.InferOutput<typeof AuditEntrySchema>] extends [AuditEntry]
    ? true
    : false
  : false = true;

/** `GET /v1/orgs/{org}/audit-log` (routes/v1/audit-log.ts). */
export const auditLogPart: OpenApiPart = {
  schemas: { AuditEntry: jsonSchemaOf(AuditEntrySchema) },
  paths: {
    "/v1/orgs/{org}/audit-log": {
      get: {
        summary: "Every change, newest first; secrets never appear (viewer).",
        security: keyOrSession.read,
        parameters: [orgParameter, ...pageParameters],
        responses: {
          "200": json(listOf("entries", ref("AuditEntry")), "A page of entries."),
          ...errors.badQuery,
          ...readErrors,
        },
      },
    },
  },
};
