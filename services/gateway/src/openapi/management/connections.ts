import { CONNECTION_VENDORS } from "@usage-ingestion/reconciliation";
import type { JsonSchema } from "@valibot/to-json-schema";
import { ConnectionPutSchema } from "../../routes/v1/connections.ts";
import {
  body,
  changeErrors,
  errors,
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

/** A connection as connectionView (packages/reconciliation) answers it: never the credential. */
const connection: JsonSchema = {
  type: "object",
  properties: {
    vendor: { type: "string", enum: [...CONNECTION_VENDORS] },
    status: { type: "string", enum: ["active"] },
    created_at: time,
    updated_at: time,
    last_run_at: orNull(time),
    last_error: orNull({ type: "string" }),
    mappings: {
      type: "object",
      additionalProperties: { type: "string" },
      description:
        "The vendor's grouping ids (`project_id`, `workspace_id`, ...) mapped to declared dimensions. OpenAI's " +
        "`project_id` and Anthropic's `workspace_id` split the reconciliation's rows by the dimension's value, " +
        "which is the vendor's id (docs/reconciliation.md); `api_key_id` is kept and splits nothing.",
    },
  },
  required: ["vendor", "status", "created_at", "updated_at", "last_run_at", "last_error", "mappings"],
};

const connections = "/v1/orgs/{org}/connections";
const vendor = pathParameter("vendor", `The vendor: ${CONNECTION_VENDORS.join(", ")}.`);
const noKey = json(ref("ErrorResponse"), "`conflict`: this deployment has no WEBHOOK_SECRET_KEY to seal with.");

/** `/v1/orgs/{org}/connections` (routes/v1/connections.ts): the vendors' reports an organization connects. */
export const connectionsPart: OpenApiPart = {
  schemas: { Connection: connection },
  paths: {
    [connections]: {
      get: {
        summary: "The organization's vendor connections for reconciliation, never a credential (viewer).",
        security: keyOrSession.read,
        parameters: [orgParameter, ...pageParameters],
        responses: {
          "200": json(listOf("connections", ref("Connection")), "Each connection."),
          ...errors.badQuery,
          ...readErrors,
        },
      },
    },
    [`${connections}/{vendor}`]: {
      put: {
        summary:
          "Connects a vendor, or replaces its credential and mappings (admin); the credential is never read back.",
        description:
          "`credential`: an OpenAI admin key (`sk-admin-...`), an Anthropic Admin API key (`sk-ant-admin...`), the " +
          "Cloud Billing export's BigQuery table for `gemini`, an IAM role ARN or `<access key id>:<secret>` for " +
          "`bedrock`. It is sealed with WEBHOOK_SECRET_KEY. 201 when new, 200 when replaced.",
        security: keyOrSession.change,
        parameters: [orgParameter, vendor],
        requestBody: body(ConnectionPutSchema),
        responses: {
          "200": json(ref("Connection"), "Replaced."),
          "201": json(ref("Connection"), "Connected."),
          ...changeErrors,
          "409": noKey,
        },
      },
      delete: {
        summary: "Removes the connection and its stored credential (admin).",
        security: keyOrSession.change,
        parameters: [orgParameter, vendor],
        responses: { "204": noContent("Removed."), ...readErrors, ...errors.forbidden },
      },
    },
  },
};
