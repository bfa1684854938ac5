import { DimensionsSchema } from "@usage-ingestion/organizations";
import { jsonSchemaOf } from "../json-schema.ts";
import {
  body,
  changeErrors,
  json,
  keyOrSession,
  type OpenApiPart,
  orgParameter,
  readErrors,
  ref,
} from "./operations.ts";

/** `/v1/orgs/{org}/dimensions` (routes/v1/dimensions.ts): the answer has the body's own shape. */
export const dimensionsPart: OpenApiPart = {
  schemas: { Dimensions: jsonSchemaOf(DimensionsSchema) },
  paths: {
    "/v1/orgs/{org}/dimensions": {
      get: {
        summary: "The `context` keys the reports group and filter on (viewer).",
        security: keyOrSession.read,
        parameters: [orgParameter],
        responses: { "200": json(ref("Dimensions"), "The declared dimensions."), ...readErrors },
      },
      put: {
        summary: "Declares the dimensions, with the rules of `admin org dimensions set` (admin).",
        security: keyOrSession.change,
        parameters: [orgParameter],
        requestBody: body(DimensionsSchema),
        responses: { "200": json(ref("Dimensions"), "The dimensions as stored."), ...changeErrors },
      },
    },
  },
};
