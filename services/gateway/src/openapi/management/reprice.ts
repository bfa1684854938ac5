import * as v from "valibot";
import { RepriceSchema } from "../../routes/v1/reprice.ts";
import { jsonSchemaOf } from "../json-schema.ts";
import { body, changeErrors, json, keyOrSession, type OpenApiPart, orgParameter } from "./operations.ts";

/** What `repriceUnpriced` found, as the route answers it. */
const RepriceAnswerSchema = v.object({
  dry_run: v.boolean(),
  examined: v.pipe(v.number(), v.integer(), v.minValue(0)),
  priced: v.array(v.object({ message_id: v.string(), model: v.string(), cost_usd: v.string() })),
  still_unpriced: v.array(v.object({ message_id: v.string(), reason: v.string() })),
  unpublished: v.pipe(
    v.array(v.object({ message_id: v.string(), received_at: v.string(), error: v.string() })),
    v.description("Re-priced but not yet sent to BigQuery: `records publish` sends them again."),
  ),
});

/** `POST /v1/orgs/{org}/reprice` (routes/v1/reprice.ts). */
export const repricePart: OpenApiPart = {
  paths: {
    "/v1/orgs/{org}/reprice": {
      post: {
        summary: "Prices the unpriced records again, as `admin reprice` does (admin); the body is optional.",
        security: keyOrSession.change,
        parameters: [orgParameter],
        requestBody: { ...body(RepriceSchema), required: false },
        responses: {
          "200": json(jsonSchemaOf(RepriceAnswerSchema), "What was priced (or would be), and what stays unpriced."),
          ...changeErrors,
        },
      },
    },
  },
};
