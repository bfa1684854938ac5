import { ReportStopped } from "@usage-ingestion/reports";
import {
  ConflictError,
  conflict,
  type ErrorReply,
  ForbiddenError,
  forbidden,
  NotFoundError,
  notFound,
  rateLimited,
  reportTooLarge,
  UserError,
  validationFailed,
} from "@usage-ingestion/shared";

/** Seconds a client waits before asking again for a report refused while the instance is busy. */
const BUSY_RETRY_AFTER_SECONDS = 1;

/**
 * The one map from the packages' typed errors to HTTP answers: the packages throw what happened, and only
 * here, at the edge, does it get a status. Undefined for an error nobody expected, which the app answers
 * 500 with a generic message (fallbacks.ts).
 */
export function errorReply(error: unknown): ErrorReply | undefined {
  if (error instanceof ReportStopped) {
    switch (error.reason) {
      // The report's own ceilings: the same request will never fit; the message says how to narrow it.
      case "too_large":
        return reportTooLarge(error.message);
      // The reports beside it hold the instance's groups: the same request may well fit in a moment.
      case "busy":
        return rateLimited(error.message, BUSY_RETRY_AFTER_SECONDS, {});
    }
  }
  if (error instanceof NotFoundError) return notFound(error.message);
  if (error instanceof ConflictError) return conflict(error.message);
  if (error instanceof ForbiddenError) return forbidden(error.message);
  // A rule a package checks beyond the body's schema (an undeclared dimension, a list past its bound):
  // the caller's mistake about what was sent.
  if (error instanceof UserError) {
    return validationFailed([{ field: "body", code: "invalid_value", message: error.message }], error.message);
  }
  return undefined;
}
