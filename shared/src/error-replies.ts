import { type ErrorResponse, errorBody } from "./error-envelope.ts";
import type { FieldError } from "./field-errors.ts";

/**
 * Every error the service answers, with its HTTP status: the one place that knows which status goes
 * with which error. Callers send `{ status, body, headers }` as it is and never write an error body.
 */
export interface ErrorReply {
  status: 400 | 401 | 403 | 404 | 405 | 408 | 409 | 413 | 415 | 422 | 429 | 431 | 500;
  body: ErrorResponse;
  headers?: Record<string, string>;
}

const countText = (count: number) => `${count} field error${count === 1 ? "" : "s"}`;

/** 400 `validation_error` with every field error found. */
export const validationFailed = (details: FieldError[], message?: string): ErrorReply => ({
  status: 400,
  body: errorBody(
    "validation_error",
    message ?? `The request failed validation with ${countText(details.length)}.`,
    details,
  ),
});

/** 400 `invalid_json`: the body is missing, malformed, or not declared as JSON. */
export const invalidJson = (message: string): ErrorReply => ({ status: 400, body: errorBody("invalid_json", message) });

/** 422 `report_too_large`: the report would pass its ceilings; the message says how to narrow it. */
export const reportTooLarge = (message: string): ErrorReply => ({
  status: 422,
  body: errorBody("report_too_large", message),
});

/** 401 `unauthorized`: the key is absent, unknown, disabled, or used outside its scope. */
export const unauthorized = (message: string): ErrorReply => ({
  status: 401,
  body: errorBody("unauthorized", message),
});

/** 403 `forbidden`: the caller is known and a member, but its role may not do this. */
export const forbidden = (message: string): ErrorReply => ({ status: 403, body: errorBody("forbidden", message) });

/** 404 `not_found`: no such resource, or one the caller may not know exists (another organization's). */
export const notFound = (message: string): ErrorReply => ({ status: 404, body: errorBody("not_found", message) });

/** 409 `conflict`: the change would break a rule (the last owner, a duplicate id, a stale `If-Match`). */
export const conflict = (message: string): ErrorReply => ({ status: 409, body: errorBody("conflict", message) });

/** 500 `internal_error`: something on our side failed; the client may retry. */
export const internalError = (message: string): ErrorReply => ({
  status: 500,
  body: errorBody("internal_error", message),
});

/**
 * 404 `not_found`: no such resource in the caller's organization. Another organization's is answered the
 * same, so its existence is never revealed.
 */
export const resourceNotFound = (message: string): ErrorReply => ({
  status: 404,
  body: errorBody("not_found", message),
});

/** 404: the spec's list of error codes is closed, so an unknown path is a `validation_error` at `path`. */
export const routeNotFound = (method: string, path: string, routes: string): ErrorReply => ({
  status: 404,
  body: errorBody("validation_error", `No route for ${method} ${path}; the service answers ${routes}.`, [
    { field: "path", code: "invalid_value", message: `path ${path} does not exist` },
  ]),
});

/** 405 with `Allow`: a known path asked with another method. */
export const methodNotAllowed = (method: string, path: string, allowed: string): ErrorReply => ({
  status: 405,
  headers: { Allow: allowed },
  body: errorBody("validation_error", `${method} is not allowed on ${path}; use ${allowed}.`, [
    { field: "method", code: "invalid_value", message: `method must be ${allowed}, not ${method}` },
  ]),
});

/** 413: the body is over the limit, reported at `body`. */
export const bodyTooLarge = (limitBytes: number): ErrorReply => ({
  status: 413,
  body: errorBody("validation_error", `The request body is larger than ${limitBytes / (1024 * 1024)} MiB.`, [
    { field: "body", code: "too_large", message: `body must be at most ${limitBytes} bytes` },
  ]),
});

/** 415: a body in an encoding we do not take (gzip or none), reported at the header. */
export const unsupportedEncoding = (given: string): ErrorReply => ({
  status: 415,
  body: errorBody("validation_error", `The Content-Encoding ${given} is not supported; use gzip or none.`, [
    { field: "headers.content-encoding", code: "invalid_value", message: "content-encoding must be gzip or absent" },
  ]),
});

/** 400: nesting past the limit, at the path where it passes it. */
export const nestedTooDeep = (field: string, maxDepth: number): ErrorReply =>
  validationFailed([{ field, code: "too_large", message: `${field} is nested more than ${maxDepth} levels deep` }]);

/**
 * What Node's HTTP parser refuses before any route runs: the request is answered in the same envelope.
 * The spec's codes are a closed list, so these are `validation_error`s naming what was wrong.
 */
export const headersTooLarge = (limitBytes: number): ErrorReply => ({
  status: 431,
  body: errorBody("validation_error", `The request headers are larger than ${limitBytes / 1024} KiB.`, [
    { field: "headers", code: "too_large", message: `headers must be at most ${limitBytes} bytes in total` },
  ]),
});

export const malformedRequest = (): ErrorReply => ({
  status: 400,
  body: errorBody("validation_error", "The HTTP request is malformed.", [
    { field: "request", code: "invalid_format", message: "request is not a well-formed HTTP/1.1 request" },
  ]),
});

export const requestTimeout = (seconds: number): ErrorReply => ({
  status: 408,
  body: errorBody("validation_error", `The request was not received within ${seconds} s.`, [
    { field: "request", code: "invalid_format", message: `request must arrive completely within ${seconds} s` },
  ]),
});

/**
 * 429 `rate_limited`: a limit was reached and nothing was done (nothing queued), so the same request is
 * safe to send again after `Retry-After` seconds. `headers` carries the limit's `RateLimit-*` headers.
 */
export const rateLimited = (
  message: string,
  retryAfterSeconds: number,
  headers: Record<string, string>,
): ErrorReply => ({
  status: 429,
  body: errorBody("rate_limited", message),
  headers: { ...headers, "Retry-After": String(retryAfterSeconds) },
});
