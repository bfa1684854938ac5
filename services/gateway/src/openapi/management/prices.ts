import type { JsonSchema } from "@valibot/to-json-schema";
import { PriceInputSchema } from "../../routes/v1/prices.ts";
import { jsonSchemaOf } from "../json-schema.ts";
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
  pageParameters,
  pathParameter,
  readErrors,
  ref,
} from "./operations.ts";

const price = jsonSchemaOf(PriceInputSchema);
/** A stored price: what `POST` took, with its `id` and `etag` beside (priceView of the prices package). */
const storedPrice: JsonSchema = {
  ...price,
  properties: {
    id: { type: "string", description: "`prc_...`: a digest of provider, model, model_tier and effective_from." },
    etag: { type: "string", description: "The price's version, for `If-Match`." },
    ...price.properties,
  },
  required: ["id", "etag", ...(price.required ?? [])],
};

const prices = "/v1/orgs/{org}/prices";

/** `/v1/orgs/{org}/prices` (routes/v1/prices.ts): the organization's own prices. */
export const pricesPart: OpenApiPart = {
  schemas: { PriceInput: price, Price: storedPrice },
  paths: {
    [prices]: {
      get: {
        summary: "The organization's own prices, by id (viewer).",
        security: keyOrSession.read,
        parameters: [orgParameter, ...pageParameters],
        responses: {
          "200": json(listOf("prices", ref("Price")), "A page of prices."),
          ...errors.badQuery,
          ...readErrors,
        },
      },
      post: {
        summary: "Adds one price in the schema `admin pricing add` takes; unknown keys refused by name (admin).",
        description:
          "A price with the same provider, model, model_tier and effective_from is 409 `conflict`: delete it " +
          "first. The answer's ETag header is the price's `etag`.",
        security: keyOrSession.change,
        parameters: [orgParameter],
        requestBody: body(PriceInputSchema),
        responses: { "201": json(ref("Price"), "The price as stored."), ...changeErrors, ...errors.conflict },
      },
    },
    [`${prices}/{id}`]: {
      delete: {
        summary: "Removes one price (admin), honouring If-Match.",
        security: keyOrSession.change,
        parameters: [orgParameter, pathParameter("id", "The price's id (`prc_...`)."), ifMatchParameter],
        responses: { "204": noContent("Removed."), ...readErrors, ...errors.forbidden, ...errors.conflict },
      },
    },
  },
};
