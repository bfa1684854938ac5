import { BUDGET_ID } from "@usage-ingestion/budgets";
import { MAX_EMAIL_LENGTH } from "@usage-ingestion/members";
import { MAX_SETTING_USD } from "@usage-ingestion/reconciliation";
import { MAX_RECORDS_PER_PAGE } from "@usage-ingestion/records";
import { MAX_GROUPS_PER_PAGE } from "@usage-ingestion/reports";
import {
  MAX_CONTEXT_KEY_BYTES,
  MAX_CONTEXT_KEYS,
  MAX_IDENTIFIER_BYTES,
  MAX_PAGE_LIMIT,
  MAX_PROVIDER_COST_USD,
  PROVIDER_COST_PLACES,
  PROVIDER_COST_TYPE,
  USAGE_TYPES,
} from "@usage-ingestion/shared";
import { type JsonSchema, toJsonSchema } from "@valibot/to-json-schema";
import type * as v from "valibot";

/**
 * Valibot -> JSON Schema 2020-12 (the dialect of OpenAPI 3.1). Where a schema uses a custom check the
 * converter cannot read, the override says in JSON Schema what the check does; anything else unknown
 * throws, so a new custom check cannot slip into the document unsaid.
 */
type Override = JsonSchema | ((converted: JsonSchema) => JsonSchema);

/** A property's schema with a byte bound said as the converter says `max_bytes`. */
const propertyAtMostBytes =
  (name: string, bytes: number) =>
  (converted: JsonSchema): JsonSchema => {
    const properties = (converted.properties ?? {}) as Record<string, JsonSchema>;
    const property = { ...properties[name], maxLength: bytes, description: `At most ${bytes} bytes in UTF-8.` };
    return { ...converted, properties: { ...properties, [name]: property } };
  };

const CHECK_OVERRIDES: Record<string, Override> = {
  // AudioSecondsMetricsSchema
  "must include at least one of input_seconds, output_seconds, total_seconds": {
    anyOf: [{ required: ["input_seconds"] }, { required: ["output_seconds"] }, { required: ["total_seconds"] }],
  },
  // report parameters
  "must be an ISO 8601 date or date-time with a time zone": {
    pattern: "^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2}))?$",
  },
  "must be a UTC day YYYY-MM-DD": { pattern: "^\\d{4}-\\d{2}-\\d{2}$" },
  // GET /usage/budgets
  "must be a budget id": { pattern: BUDGET_ID.source },
  [`must be a whole number from 1 to ${MAX_GROUPS_PER_PAGE}`]: { pattern: "^[0-9]{1,5}$" },
  // GET /usage/records: limit, three checks with a code each; together, a whole number from 1 to 1,000.
  "must be at least 1": {},
  [`must be at most ${MAX_RECORDS_PER_PAGE}`]: {},
  // context: at most 64 keys, names at most 128 bytes
  [`must have at most ${MAX_CONTEXT_KEYS} keys, each name at most ${MAX_CONTEXT_KEY_BYTES} bytes in UTF-8`]: {
    maxProperties: MAX_CONTEXT_KEYS,
    propertyNames: {
      maxLength: MAX_CONTEXT_KEY_BYTES,
      description: `At most ${MAX_CONTEXT_KEY_BYTES} bytes in UTF-8.`,
    },
  },
  // provider, model, model_tier, transaction_id, billable_customer_id (validUnicode)
  "must be valid Unicode text (it holds a lone surrogate)": {
    description: "Valid Unicode text: a lone surrogate (such as \\ud800) is refused as invalid_format.",
  },
  // the same identifiers (plainText): no control or bidirectional formatting character (decisions.md)
  "must not contain control characters or bidirectional formatting characters": {
    pattern: "^[^\\u0000-\\u001F\\u007F-\\u009F\\u061C\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069]*$",
  },
  // a list's `limit` (the management API's PageQuerySchema, GET /usage/records), a whole number in the
  // query's text; both lists take 1 to 1,000
  "must be a whole number": {
    pattern: "^[0-9]{1,7}$",
    description: `A whole number from 1 to ${MAX_PAGE_LIMIT}.`,
  },
  // an organization's own price (CustomPriceSchema, PriceInputSchema)
  'must be a non-negative decimal amount in USD, like "2.50"': {
    pattern: "^\\s*[0-9]+(\\.[0-9]+)?([eE][+-]?[0-9]+)?\\s*$",
    description: "USD, a non-negative decimal (a string, exact; or a JSON number, read through its decimal text).",
  },
  // provider_cost (ProviderCostSchema): each check refuses one problem; together, the pattern and bound.
  'must be a decimal amount in USD, like "0.0012" (digits and one point)': {
    pattern: `^[0-9]+(\\.[0-9]{1,${PROVIDER_COST_PLACES}})?$`,
    description: `USD the vendor reported for the call, at most ${MAX_PROVIDER_COST_USD} and ${PROVIDER_COST_PLACES} decimal places: a decimal string (exact), or a JSON number read through its shortest decimal text.`,
  },
  "must be at least 0": { minimum: 0 },
  [`must have at most ${PROVIDER_COST_PLACES} decimal places (send the vendor's figure as a decimal string)`]: {},
  [`must be at most ${MAX_PROVIDER_COST_USD} (USD, one call)`]: { maximum: MAX_PROVIDER_COST_USD },
  [`model must be at most ${MAX_IDENTIFIER_BYTES} bytes in UTF-8`]: propertyAtMostBytes("model", MAX_IDENTIFIER_BYTES),
  [`model_tier must be at most ${MAX_IDENTIFIER_BYTES} bytes in UTF-8`]: propertyAtMostBytes(
    "model_tier",
    MAX_IDENTIFIER_BYTES,
  ),
  // PATCH /v1/orgs/{org}/api-keys/{id}
  "must name `status` or `name`": { anyOf: [{ required: ["status"] }, { required: ["name"] }] },
  // PUT /v1/orgs/{org}/reconciliation/settings (ReconciliationSettingsSchema)
  "must have at most 4 decimal places": { multipleOf: 0.0001 },
  'must be a decimal string of US dollars with at most 9 decimal places, such as "0.01"': {
    pattern: "^[0-9]{1,7}(\\.[0-9]{1,9})?$",
  },
  [`must be at most ${MAX_SETTING_USD}`]: { description: `USD, at most ${MAX_SETTING_USD}, nine places at most.` },
  // a member's email (InvitationSchema)
  "must be an email address": {
    description: `An email address, at most ${MAX_EMAIL_LENGTH} characters; members are keyed by it in lower case.`,
  },
};

function convert(schema: v.GenericSchema, overrides: Record<string, JsonSchema>): JsonSchema {
  return toJsonSchema(schema, {
    target: "draft-2020-12",
    // The schemas' transforms keep each value's shape (overridden below), so input and output agree; "output" reads a `jsonObject(schema)` pipe
    // (a custom "a JSON object, not an array" check, then the object schema) by its object schema.
    typeMode: "output",
    errorMode: "throw",
    // `anyJsonObject`: the custom check alone.
    // `ProviderCostSchema`'s type: a string or a number.
    overrideSchema: ({ valibotSchema }) =>
      valibotSchema.type !== "custom"
        ? undefined
        : (valibotSchema as { message?: unknown }).message === PROVIDER_COST_TYPE
          ? { type: ["string", "number"] }
          : { type: "object" },
    overrideAction: ({ valibotAction, jsonSchema }) => {
      // JSON numbers are always finite.
      if (valibotAction.type === "finite") return jsonSchema;
      // A transform (an amount's text trimmed, the query's `limit` read as a number) changes the value, not
      // what a client may send: the document describes what is sent.
      if (valibotAction.type === "transform") return jsonSchema;
      // `limit` is text in the query: its bounds, checked once read as a number, are said in its description.
      if ((valibotAction.type === "min_value" || valibotAction.type === "max_value") && jsonSchema.type === "string")
        return jsonSchema;
      // JSON Schema counts characters, not bytes: the bound is said in words, with the longest ASCII text.
      if (valibotAction.type === "max_bytes") {
        const bytes = (valibotAction as { requirement?: unknown }).requirement as number;
        return { ...jsonSchema, maxLength: bytes, description: `At most ${bytes} bytes in UTF-8.` };
      }
      // The one raw check: each usage type at most once per transaction.
      if (valibotAction.type === "raw_check") {
        const once = USAGE_TYPES.map((type) => ({
          contains: { properties: { type: { const: type } }, required: ["type"] },
          minContains: 0,
          maxContains: 1,
        }));
        return { ...jsonSchema, allOf: once };
      }
      if (valibotAction.type === "check") {
        const message = (valibotAction as { message?: unknown }).message;
        const override = typeof message === "string" ? (overrides[message] ?? CHECK_OVERRIDES[message]) : undefined;
        if (!override) throw new Error(`no JSON Schema override for the check "${String(message)}"`);
        return typeof override === "function" ? override(jsonSchema) : { ...jsonSchema, ...override };
      }
      return undefined;
    },
  });
}

/** `overrides`: more checks said in JSON Schema, by message, kept beside the paths that use them. */
export function jsonSchemaOf(schema: v.GenericSchema, overrides: Record<string, JsonSchema> = {}): JsonSchema {
  const converted = convert(schema, overrides);
  const { $schema: _dialect, ...rest } = converted;
  return rest;
}
