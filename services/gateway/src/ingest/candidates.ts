import {
  type FieldError,
  type FieldErrorPlace,
  type ValidationSource,
  validateTransaction,
} from "@usage-ingestion/shared";
import type { ValidTransaction } from "./queue-transactions.ts";

/**
 * A transaction a route offers for ingestion, in request order: an input to validate (its field errors
 * placed at `place`, its reason prefixed by `name` where the route names its transactions), or the reason
 * it is already invalid (a span that cannot be a transaction, say).
 */
export type Candidate =
  | { input: unknown; place?: FieldErrorPlace; name?: string }
  | { invalid: string; errors?: readonly FieldError[] };

export interface Judged {
  /** The valid transactions, with their index in the request. */
  valid: ValidTransaction[];
  /** Per candidate, why it is invalid, or undefined when it is valid. */
  invalid: Array<string | undefined>;
  /** Every field error found, in request order: a route answers with them when none is valid. */
  errors: FieldError[];
}

/** Every candidate judged by the shared schema, as POST /usage/transactions and POST /v1/traces both judge. */
export function judgeCandidates(candidates: readonly Candidate[], source: ValidationSource): Judged {
  const valid: ValidTransaction[] = [];
  const errors: FieldError[] = [];
  const invalid = candidates.map((candidate, index) => {
    if ("invalid" in candidate) {
      for (const error of candidate.errors ?? []) errors.push(error);
      return candidate.invalid;
    }
    const judged = validateTransaction(candidate.input, candidate.place, source);
    if (!judged.ok) {
      for (const error of judged.errors) errors.push(error);
      const reason = describeInvalid(judged.errors);
      return candidate.name === undefined ? reason : `${candidate.name}: ${reason}`;
    }
    valid.push({ index, transaction: judged.transaction });
    return undefined;
  });
  return { valid, invalid, errors };
}

/** A failed transaction names its first field error; the others are found by fixing and resending. */
export function describeInvalid(errors: FieldError[]): string {
  const [first] = errors;
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more field error(s))` : "";
  return first ? `validation failed: ${first.field} (${first.code}): ${first.message}${more}` : "validation failed";
}
