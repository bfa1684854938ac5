import { jsonObject } from "@usage-ingestion/shared";
import * as v from "valibot";
import { MAX_KEY_NAME_LENGTH } from "./api-keys.ts";
import { MAX_DIMENSIONS } from "./dimension-names.ts";
import { KEY_SCOPES } from "./organization-documents.ts";

/** The management API's bodies for keys and dimensions: what the routes validate and /openapi.json shows. */
const keyName = v.pipe(
  v.string("must be a string"),
  v.minLength(1, "must not be empty"),
  v.maxLength(MAX_KEY_NAME_LENGTH, `must be at most ${MAX_KEY_NAME_LENGTH} characters`),
);
const scope = v.picklist(KEY_SCOPES, `must be one of ${KEY_SCOPES.join(", ")}`);
const status = v.picklist(["active", "disabled"] as const, "must be active or disabled");

export const ApiKeyCreateSchema = jsonObject(v.strictObject({ name: keyName, scope }, "holds an unknown field"));

export const ApiKeyUpdateSchema = jsonObject(
  v.pipe(
    v.strictObject({ name: v.optional(keyName), status: v.optional(status) }, "holds an unknown field"),
    v.check((change) => change.name !== undefined || change.status !== undefined, "must name `status` or `name`"),
  ),
);

export const DimensionsSchema = jsonObject(
  v.strictObject(
    {
      dimensions: v.pipe(
        v.array(v.pipe(v.string("must be a string"), v.maxLength(64, "must be at most 64 characters"))),
        v.maxLength(MAX_DIMENSIONS, `must hold at most ${MAX_DIMENSIONS} names`),
      ),
    },
    "holds an unknown field",
  ),
);
