import type { membershipsOf } from "@usage-ingestion/members";
import { ROLES } from "@usage-ingestion/organizations";
import * as v from "valibot";
import { CSRF_HEADER } from "../../auth/session/csrf.ts";
import { jsonSchemaOf } from "../json-schema.ts";
import { errors, type OpenApiPart, sessionOnly } from "./operations.ts";

const MeSchema = v.object({
  email: v.string(),
  organizations: v.array(v.object({ id: v.string(), name: v.string(), role: v.picklist(ROLES) })),
});
type Memberships = Awaited<ReturnType<typeof membershipsOf>>;
export const meSchemaMatches: [Memberships] extends [v.InferOutput<typeof MeSchema>["organizations"]]
  ? [v.InferOutput<typeof MeSchema>["organizations"]] extends [Memberships]
    ? true
    : false
  : false = true;

/** `GET /v1/me` (routes/v1/me.ts). */
export const mePart: OpenApiPart = {
  paths: {
    "/v1/me": {
      get: {
        summary: "Who is signed in, and their organizations with their role in each.",
        security: sessionOnly.read,
        responses: {
          "200": {
            description: "The person; the header carries the CSRF token every change made with the session sends.",
            headers: { [CSRF_HEADER]: { schema: { type: "string" }, description: "The session's CSRF token." } },
            content: { "application/json": { schema: jsonSchemaOf(MeSchema) } },
          },
          ...errors.unauthorized,
        },
      },
    },
  },
};
