import * as v from "valibot";
import { jsonSchemaOf } from "../json-schema.ts";
import { json, keyOrSession, type OpenApiPart, orgParameter, readErrors } from "./operations.ts";

/** The organization's settings as `admin org` sets them (routes/v1/organization.ts). */
const OrganizationSchema = v.object({
  id: v.string(),
  name: v.string(),
  status: v.picklist(["active", "disabled"]),
  created_at: v.string(),
  dimensions: v.array(v.string()),
  limits: v.pipe(
    v.record(v.string(), v.number()),
    v.description("Its own rate limits (`admin org limits set`); each one absent takes the gateway's default."),
  ),
  otel: v.pipe(
    v.object({ customer_attribute: v.optional(v.string()), context_attributes: v.optional(v.array(v.string())) }),
    v.description("Which span attributes become the customer and the context (`admin org otel set`)."),
  ),
});

/** `GET /v1/orgs/{org}`. */
export const organizationPart: OpenApiPart = {
  schemas: { Organization: jsonSchemaOf(OrganizationSchema) },
  paths: {
    "/v1/orgs/{org}": {
      get: {
        summary: "The organization: id, name, status, created_at, dimensions, limits, otel (viewer).",
        security: keyOrSession.read,
        parameters: [orgParameter],
        responses: { "200": json({ $ref: "#/components/schemas/Organization" }, "The organization."), ...readErrors },
      },
    },
  },
};
