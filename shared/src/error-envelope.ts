import type { FieldError } from "./field-errors.ts";

// The error envelope every error answer has: `{ error: { code, message, details? } }`.

/** The closed list of error codes of the specification. */
export const ERROR_CODES = [
  "validation_error",
  "invalid_json",
  "unauthorized",
  "internal_error",
  "partial_failure",
  // Added by decisions.md (rate limits): over a limit, nothing queued, retry after Retry-After.
  "rate_limited",
  // Added by decisions.md (large reports): a report past its ceiling on documents read or on time.
  "report_too_large",
  // Added by the management API: a member whose role may not do this, a resource not there (or not the
  // caller's to know of), and a change that would break a rule (the last owner, a duplicate).
  "forbidden",
  "not_found",
  "conflict",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorObject {
  code: ErrorCode;
  message: string;
  details?: FieldError[];
}
export interface ErrorResponse {
  error: ErrorObject;
}

export function errorBody(code: ErrorCode, message: string, details?: FieldError[]): ErrorResponse {
  return { error: details ? { code, message, details } : { code, message } };
}
