import * as v from "valibot";

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

/**
 * A `v.check` whose failure carries a chosen field-error code (Valibot's own issue types cannot say it).
 * The code travels on the requirement itself, which Valibot hands back on the issue.
 */
export function checkWithCode<TInput>(code: FieldErrorCode, requirement: (input: TInput) => boolean, message: string) {
  return v.check(Object.assign(requirement, { fieldErrorCode: code }), message);
}

function codeOfCheck(requirement: unknown): FieldErrorCode | undefined {
  return typeof requirement === "function"
    ? (requirement as { fieldErrorCode?: FieldErrorCode }).fieldErrorCode
    : undefined;
}

export interface FieldErrorPlace {
  /** Where the validated value sits in the request: `transactions.3` in a bulk request. */
  prefix?: string;
  /** The name of the value itself when an issue is about all of it (`body` for a request body). */
  root?: string;
}

/** Where a field error stands, and the subject its message starts with. */
export function fieldAt(path: string, { prefix = "", root = "" }: FieldErrorPlace = {}): string {
  return joinPath(prefix, path) || root;
}

/** An issue about the whole value, with no name given for it, is about the transaction. */
export const subjectOf = (field: string) => field || "the transaction";

/** Every issue Valibot found, as the specification's field errors, each built once at its final place. */
export function toFieldErrors(issues: readonly Issue[], place: FieldErrorPlace = {}): FieldError[] {
  return issues.map((issue) => {
    const field = fieldAt(issuePath(issue), place);
    const code = codeOf(issue);
    const message =
      code === "required" && issue.input === undefined
        ? `${subjectOf(field)} is required`
        : `${subjectOf(field)} ${issue.message}`;
    return { field, code, message };
  });
}

export function joinPath(prefix: string, path: string): string {
  if (prefix === "") return path;
  return path === "" ? prefix : `${prefix}.${path}`;
}
