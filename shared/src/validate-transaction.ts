import { dimensionValue } from "./dimension-value.ts";
import { type FieldError, type FieldErrorPlace, fieldAt, subjectOf, toFieldErrors } from "./field-errors.ts";
import { MAX_IDENTIFIER_BYTES, MAX_TRANSACTION_BYTES } from "./limits.ts";
import { acceptFirst } from "./schemas/accept-first.ts";
import { withSkippedKeys } from "./schemas/skipped-keys.ts";
import { type Transaction, TransactionSchema } from "./schemas/transaction.ts";
import { hasControlOrBidi, utf8ByteLength } from "./unicode.ts";

export type TransactionValidation = { ok: true; transaction: Transaction } | { ok: false; errors: FieldError[] };

/** Valibot's output for a valid transaction at a fraction of its cost; Valibot itself says what is wrong. */
const parseTransaction = acceptFirst(TransactionSchema, { abortEarly: false, abortPipeEarly: true });

/** Where the value came from: the JSON text it was parsed out of (a whole request body, say). */
export interface ValidationSource {
  jsonBytes?: number;
  /** The organization's declared context dimensions: their values are cell keys, bounded as identifiers. */
  dimensions?: readonly string[];
}

/**
 * Serialising a parsed value outgrows its JSON text only through numbers (`1e20`, 4 bytes, is written
 * back as 21 digits): with the separator every token needs, less than 5-fold. A text of at most an
 * eighth of the limit therefore holds no transaction over it, and measuring can be skipped.
 */
export const SIZE_CHECK_NEEDED_ABOVE_BYTES = MAX_TRANSACTION_BYTES / 8;

/**
 * Validates one transaction and reports every field error found, each placed where the transaction
 * stands in the request (`transactions.<i>` in a bulk request, `body` for a single one).
 */
export function validateTransaction(
  input: unknown,
  place: FieldErrorPlace = {},
  source: ValidationSource = {},
): TransactionValidation {
  const parsed = parseTransaction(input);
  if (!parsed.success) return { ok: false, errors: toFieldErrors(parsed.issues, place) };
  const transaction = withSkippedKeys(input, parsed.output);
  const dimensionErrors = source.dimensions?.length ? dimensionProblems(transaction, source.dimensions, place) : [];
  if (dimensionErrors.length > 0) return { ok: false, errors: dimensionErrors };
  const small = source.jsonBytes !== undefined && source.jsonBytes <= SIZE_CHECK_NEEDED_ABOVE_BYTES;
  if (small) return { ok: true, transaction };
  const oversize = sizeError(transaction, place);
  return oversize ? { ok: false, errors: [oversize] } : { ok: true, transaction };
}

/**
 * A declared dimension's value, as its roll-up cell holds it, is an identifier: at most
 * MAX_IDENTIFIER_BYTES, and no control or bidirectional formatting character.
 */
function dimensionProblems(transaction: Transaction, declared: readonly string[], place: FieldErrorPlace) {
  const errors: FieldError[] = [];
  for (const name of declared) {
    if (!Object.hasOwn(transaction.context, name)) continue;
    const text = dimensionValue(transaction.context[name]) ?? "";
    const field = fieldAt(`context.${name}`, place);
    if (hasControlOrBidi(text)) {
      errors.push({
        field,
        code: "invalid_format",
        message: `${field} must not contain control characters or bidirectional formatting characters`,
      });
      continue;
    }
    const bytes = utf8ByteLength(text);
    if (bytes <= MAX_IDENTIFIER_BYTES) continue;
    errors.push({
      field,
      code: "too_large",
      message: `${field} is a declared dimension of ${bytes} bytes; it must be at most ${MAX_IDENTIFIER_BYTES} bytes in UTF-8`,
    });
  }
  return errors;
}

const encoder = new TextEncoder();
const utf8Bytes = (value: unknown) => encoder.encode(JSON.stringify(value) ?? "").length;

/** What is stored is the validated transaction, so that is what is measured. */
function sizeError(transaction: Transaction, place: FieldErrorPlace): FieldError | undefined {
  const bytes = utf8Bytes(transaction);
  if (bytes <= MAX_TRANSACTION_BYTES) return undefined;
  const limit = `${MAX_TRANSACTION_BYTES / 1024} KiB`;
  // Name the field that makes it large when one field alone is most of it.
  const [largest, largestBytes] = Object.entries(transaction)
    .map(([key, value]) => [key, utf8Bytes(value)] as const)
    .reduce((a, b) => (b[1] > a[1] ? b : a));
  if (largestBytes * 2 > bytes) {
    const field = fieldAt(largest, place);
    return {
      field,
      code: "too_large",
      message: `${field} is ${largestBytes} bytes; a transaction may be at most ${limit} serialized`,
    };
  }
  const field = fieldAt("", place);
  return {
    field,
    code: "too_large",
    message: `${subjectOf(field)} is ${bytes} bytes serialized; at most ${limit} is allowed`,
  };
}
