import * as v from "valibot";
import { type FieldError, toFieldErrors } from "./field-errors.ts";
import { MAX_TRANSACTION_BYTES } from "./limits.ts";
import { type Transaction, TransactionSchema } from "./schemas/transaction.ts";

export type TransactionValidation = { ok: true; transaction: Transaction } | { ok: false; errors: FieldError[] };

const PARSE_CONFIG = { abortEarly: false, abortPipeEarly: true } as const;

/**
 * Validates one transaction and reports every field error found. Paths are relative to the
 * transaction; a caller inside a bulk request prefixes them.
 */
export function validateTransaction(input: unknown): TransactionValidation {
  const result = v.safeParse(TransactionSchema, input, PARSE_CONFIG);
  if (!result.success) return { ok: false, errors: toFieldErrors(result.issues) };
  const oversize = sizeError(result.output);
  return oversize ? { ok: false, errors: [oversize] } : { ok: true, transaction: result.output };
}

const utf8Bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value) ?? "", "utf8");

/** What is stored is the validated transaction, so that is what is measured. */
function sizeError(transaction: Transaction): FieldError | undefined {
  const bytes = utf8Bytes(transaction);
  if (bytes <= MAX_TRANSACTION_BYTES) return undefined;
  const limit = `${MAX_TRANSACTION_BYTES / 1024} KiB`;
  // Name the field that makes it large when one field alone is most of it.
  const [largest, largestBytes] = Object.entries(transaction)
    .map(([key, value]) => [key, utf8Bytes(value)] as const)
    .reduce((a, b) => (b[1] > a[1] ? b : a));
  if (largestBytes * 2 > bytes) {
    return {
      field: largest,
      code: "too_large",
      message: `${largest} is ${largestBytes} bytes; a transaction may be at most ${limit} serialized`,
    };
  }
  return {
    field: "",
    code: "too_large",
    message: `the transaction is ${bytes} bytes serialized; at most ${limit} is allowed`,
  };
}
