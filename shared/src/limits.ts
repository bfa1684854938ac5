/** Limits settled in the design decisions; the gateway enforces them and the worker relies on them. */
export const MAX_TRANSACTIONS_PER_BULK = 1000;
export const MAX_BODY_BYTES = 5 * 1024 * 1024;
export const MAX_TRANSACTION_BYTES = 256 * 1024;
export const MAX_TRANSACTION_ID_LENGTH = 255;
export const MAX_NESTING_DEPTH = 64;
