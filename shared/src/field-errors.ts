import type * as v from "valibot";
import { codeOfCheck } from "./schemas/field-rules.ts";

export const FIELD_ERROR_CODES = [
  "required",
  "invalid_type",
  "invalid_value",
  "too_small",
  "too_large",
  "invalid_format",
] as const;
export type FieldErrorCode = (typeof FIELD_ERROR_CODES)[number];

export interface FieldError {
  field: string;
  code: FieldErrorCode;
  message: string;
}

type Issue = v.BaseIssue<unknown>;

/** Dotted path with numeric array positions: `usage.0.metrics.input_tokens`. */
export function issuePath(issue: Issue): string {
  return (issue.path ?? []).map((item) => String(item.key)).join(".");
}

const CODE_BY_ISSUE_TYPE: Record<string, FieldErrorCode> = {
  min_value: "too_small",
  min_length: "too_small",
  non_empty: "too_small",
  max_value: "too_large",
  max_length: "too_large",
  max_bytes: "too_large",
  integer: "invalid_type",
  literal: "invalid_value",
  raw_check: "invalid_value",
  uuid: "invalid_format",
  iso_timestamp: "invalid_format",
};

function codeOf(issue: Issue): FieldErrorCode {
  // JSON cannot carry `undefined`: an undefined input is always a key that is absent.
  if (issue.input === undefined) return "required";
  if (issue.type === "check") return codeOfCheck(issue.requirement) ?? "invalid_value";
  if (issue.type === "finite") return (issue.input as number) > 0 ? "too_large" : "too_small";
  if (issue.type === "picklist" || issue.type === "variant") {
    // A variant issue on a non-object entry is a type error; on its discriminator, a bad value.
    const onDiscriminator = issue.type === "picklist" || issue.path?.at(-1)?.key === "type";
    if (onDiscriminator) return typeof issue.input === "string" ? "invalid_value" : "invalid_type";
    return "invalid_type";
  }
  return CODE_BY_ISSUE_TYPE[issue.type] ?? "invalid_type";
}

function messageOf(field: string, code: FieldErrorCode, issue: Issue): string {
  const subject = field === "" ? "the transaction" : field;
  if (code === "required" && issue.input === undefined) return `${subject} is required`;
  return `${subject} ${issue.message}`;
}

/** Every issue Valibot found, as the specification's field errors, paths prefixed when given. */
export function toFieldErrors(issues: readonly Issue[], prefix = ""): FieldError[] {
  return issues.map((issue) => {
    const field = joinPath(prefix, issuePath(issue));
    const code = codeOf(issue);
    return { field, code, message: messageOf(field, code, issue) };
  });
}

export function joinPath(prefix: string, path: string): string {
  if (prefix === "") return path;
  return path === "" ? prefix : `${prefix}.${path}`;
}

/**
 * Places a transaction's field errors in the request: under `transactions.<i>` in a bulk request,
 * as they are in a single one, where the transaction itself is the field `body`. Messages follow.
 */
export function prefixFieldErrors(errors: readonly FieldError[], prefix: string): FieldError[] {
  return errors.map((error) => {
    const field = joinPath(prefix, error.field) || "body";
    const subject = error.field === "" ? "the transaction" : error.field;
    const message = error.message.startsWith(subject) ? field + error.message.slice(subject.length) : error.message;
    return { field, code: error.code, message };
  });
}
