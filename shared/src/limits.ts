/** Limits settled in the design decisions; the gateway enforces them and the worker relies on them. */
export const MAX_TRANSACTIONS_PER_BULK = 1000;
export const MAX_BODY_BYTES = 5 * 1024 * 1024;
export const MAX_TRANSACTION_BYTES = 256 * 1024;
export const MAX_TRANSACTION_ID_LENGTH = 255;
export const MAX_NESTING_DEPTH = 64;
/** provider, model, model_tier, transaction_id, billable_customer_id: UTF-8 bytes (decisions: identifiers). */
export const MAX_IDENTIFIER_BYTES = 256;
/** `context`: keys, and the UTF-8 bytes of each key's name. */
export const MAX_CONTEXT_KEYS = 64;
export const MAX_CONTEXT_KEY_BYTES = 128;
/**
 * Work one request may cost, checked while its JSON is walked, before validation: members in one object,
 * values (object members and array elements, at any depth) in one transaction and in one body. A
 * transaction of the API holds a few dozen; unknown members count too (and are not kept).
 */
export const MAX_MEMBERS_PER_OBJECT = 256;
export const MAX_VALUES_PER_TRANSACTION = 1_024;
export const MAX_VALUES_PER_BODY = 100_000;
