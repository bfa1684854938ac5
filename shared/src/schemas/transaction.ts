import * as v from "valibot";
import { MAX_TRANSACTION_ID_LENGTH, MAX_TRANSACTIONS_PER_BULK } from "../limits.ts";
import { PROVIDERS } from "../providers.ts";
import { anyJsonObject, identifier, jsonObject, oneOf, validUnicode } from "./field-rules.ts";
import { type UsageEntry, UsageEntrySchema } from "./usage.ts";

export const ContextSchema = jsonObject(v.looseObject({ billable_customer_id: identifier }, "must be a JSON object"));

/** Each usage type may appear once; the repeat is reported where it stands, at `usage.<i>.type`. */
const uniqueUsageTypes = v.rawCheck<UsageEntry[]>(({ dataset, addIssue }) => {
  if (!dataset.typed) return;
  const seen = new Set<string>();
  dataset.value.forEach((entry, index) => {
    if (!seen.has(entry.type)) {
      seen.add(entry.type);
      return;
    }
    addIssue({
      message: `repeats usage type "${entry.type}"; each type may appear once per transaction`,
      path: [
        { type: "array", origin: "value", input: dataset.value, key: index, value: entry },
        { type: "object", origin: "value", input: entry, key: "type", value: entry.type },
      ],
    });
  });
});

/** Unknown top-level fields are stripped (`v.object`); `context` and metrics keep theirs. */
export const TransactionSchema = jsonObject(
  v.object(
    {
      provider: v.pipe(v.string(`must be one of: ${PROVIDERS.join(", ")}`), validUnicode, oneOf(PROVIDERS)),
      model: identifier,
      model_tier: v.optional(v.pipe(v.string("must be a string"), validUnicode)),
      usage: v.pipe(
        v.array(UsageEntrySchema, "must be an array of usage entries"),
        v.minLength(1, "must contain at least 1 usage entry"),
        uniqueUsageTypes,
      ),
      context: ContextSchema,
      provider_usage_raw: v.optional(anyJsonObject),
      /** The client's own id for the event: billed once per organization, ever. */
      transaction_id: v.optional(
        v.pipe(
          v.string("must be a string"),
          v.minLength(1, "must not be empty"),
          v.maxLength(MAX_TRANSACTION_ID_LENGTH, `must be at most ${MAX_TRANSACTION_ID_LENGTH} characters`),
          validUnicode,
        ),
      ),
    },
    "must be a JSON object",
  ),
);

function bulkOf<TItem extends v.GenericSchema>(item: TItem) {
  return v.object(
    {
      transactions: v.pipe(
        v.array(item, "must be an array of transactions"),
        v.minLength(1, "must contain at least 1 transaction"),
        v.maxLength(MAX_TRANSACTIONS_PER_BULK, `must contain at most ${MAX_TRANSACTIONS_PER_BULK} transactions`),
      ),
    },
    "must be a JSON object",
  );
}

export const BulkRequestSchema = bulkOf(TransactionSchema);
/** The bulk envelope alone: the gateway judges each transaction on its own after this passes. */
export const BulkShapeSchema = bulkOf(v.unknown());

export type ContextInput = v.InferInput<typeof ContextSchema>;
export type Context = v.InferOutput<typeof ContextSchema>;
export type TransactionInput = v.InferInput<typeof TransactionSchema>;
export type Transaction = v.InferOutput<typeof TransactionSchema>;
export type BulkRequestInput = v.InferInput<typeof BulkRequestSchema>;
export type BulkRequest = v.InferOutput<typeof BulkRequestSchema>;

/** A request body is a bulk request when its top level holds `transactions`. */
export const isBulkRequestBody = (body: Record<string, unknown>): boolean => "transactions" in body;
