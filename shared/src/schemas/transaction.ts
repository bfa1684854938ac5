import * as v from "valibot";
import { checkWithCode, type FieldErrorCode } from "../field-errors.ts";
import {
  MAX_CONTEXT_KEY_BYTES,
  MAX_CONTEXT_KEYS,
  MAX_TRANSACTION_ID_LENGTH,
  MAX_TRANSACTIONS_PER_BULK,
} from "../limits.ts";
import {
  MAX_PROVIDER_COST_USD,
  PROVIDER_COST_PLACES,
  type ProviderCostProblem,
  readProviderCost,
} from "../provider-cost.ts";
import { PROVIDERS } from "../providers.ts";
import { utf8ByteLength } from "../unicode.ts";
import {
  anyJsonObject,
  identifier,
  identifierBytes,
  isJsonObject,
  jsonObject,
  oneOf,
  plainText,
  validUnicode,
} from "./field-rules.ts";
import { type UsageEntry, UsageEntrySchema } from "./usage.ts";

/**
 * The context's keys, bounded in count and in the length of their names. Every key counts, those Valibot's
 * loose objects leave out (`__proto__`, ...) too: they are stored. One pass, no array: this runs for every
 * transaction on the gateway's path.
 */
function contextKeysFit(context: Record<string, unknown>): boolean {
  let count = 0;
  for (const key in context) {
    if (!Object.hasOwn(context, key)) continue;
    if (++count > MAX_CONTEXT_KEYS) return false;
    // A UTF-16 code unit is at most 3 bytes in UTF-8: short names are within the bound uncounted.
    if (key.length * 3 > MAX_CONTEXT_KEY_BYTES && utf8ByteLength(key) > MAX_CONTEXT_KEY_BYTES) return false;
  }
  return true;
}
const contextKeys = checkWithCode<Record<string, unknown>>(
  "too_large",
  contextKeysFit,
  `must have at most ${MAX_CONTEXT_KEYS} keys, each name at most ${MAX_CONTEXT_KEY_BYTES} bytes in UTF-8`,
);

/**
 * The context as the gateway accepts it (`bounded`), or as a queued message may carry it: the bounds on
 * identifiers and context came after launch, so messages accepted before them are still read and billed.
 */
function contextSchema<const TBounded extends boolean>(bounded: TBounded) {
  const customer = bounded ? v.pipe(identifier, plainText, identifierBytes) : identifier;
  const shape = v.looseObject({ billable_customer_id: customer }, "must be a JSON object");
  const object = v.custom<Record<string, unknown>>(isJsonObject, "must be a JSON object");
  return bounded ? v.pipe(object, contextKeys, shape) : jsonObject(shape);
}

export const ContextSchema = contextSchema(true);

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

/** A check that fails only for its own problem with a provider cost (the pipe runs every check). */
const costCheck = (problem: ProviderCostProblem, code: FieldErrorCode, message: string) =>
  checkWithCode<string | number>(code, (input) => readProviderCost(input) !== problem, message);

/** The message of a provider cost that is neither text nor a number (the OpenAPI document reads it). */
export const PROVIDER_COST_TYPE = 'must be a decimal string in USD, like "0.0012", or a number';

/**
 * The cost the vendor reported for the call, in USD (provider-cost.ts): kept as sent, read exactly by
 * the worker. Not a float's noise: at most twelve decimal places.
 */
export const ProviderCostSchema = v.pipe(
  v.custom<string | number>((input) => typeof input === "string" || typeof input === "number", PROVIDER_COST_TYPE),
  costCheck("format", "invalid_format", 'must be a decimal amount in USD, like "0.0012" (digits and one point)'),
  costCheck("negative", "too_small", "must be at least 0"),
  costCheck(
    "precision",
    "invalid_format",
    `must have at most ${PROVIDER_COST_PLACES} decimal places (send the vendor's figure as a decimal string)`,
  ),
  costCheck("large", "too_large", `must be at most ${MAX_PROVIDER_COST_USD} (USD, one call)`),
);

/**
 * Unknown top-level fields are stripped (`v.object`); `context` and metrics keep theirs. `bounded` adds the
 * bounds on identifiers and context that the gateway checks (see `contextSchema`).
 */
function transactionSchema<const TBounded extends boolean>(bounded: TBounded) {
  const id = bounded ? v.pipe(identifier, plainText, identifierBytes) : identifier;
  const tier = v.pipe(v.string("must be a string"), validUnicode);
  /** The client's own id for the event: billed once per organization, ever. */
  const transactionId = v.pipe(
    v.string("must be a string"),
    v.minLength(1, "must not be empty"),
    v.maxLength(MAX_TRANSACTION_ID_LENGTH, `must be at most ${MAX_TRANSACTION_ID_LENGTH} characters`),
    validUnicode,
  );
  return jsonObject(
    v.object(
      {
        provider: v.pipe(v.string(`must be one of: ${PROVIDERS.join(", ")}`), validUnicode, oneOf(PROVIDERS)),
        model: id,
        model_tier: v.optional(bounded ? v.pipe(tier, plainText, identifierBytes) : tier),
        usage: v.pipe(
          v.array(UsageEntrySchema, "must be an array of usage entries"),
          v.minLength(1, "must contain at least 1 usage entry"),
          uniqueUsageTypes,
        ),
        context: contextSchema(bounded),
        provider_usage_raw: v.optional(anyJsonObject),
        provider_cost: v.optional(ProviderCostSchema),
        transaction_id: v.optional(bounded ? v.pipe(transactionId, plainText, identifierBytes) : transactionId),
      },
      "must be a JSON object",
    ),
  );
}

/** A transaction as `POST /usage/transactions` accepts it. */
export const TransactionSchema = transactionSchema(true);
/** A transaction as a queued message may carry it: accepted by this or an earlier version of the gateway. */
export const QueuedTransactionSchema = transactionSchema(false);

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
