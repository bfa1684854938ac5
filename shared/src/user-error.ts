/**
 * A mistake of the caller's (unknown organization, duplicate id, a value out of bounds): the command line
 * prints it without a stack trace; an HTTP edge answers it as the caller's error, never as a 500.
 */
export class UserError extends Error {
  override name = "UserError";
}

/**
 * What the caller named does not exist (an organization, a budget, a key). A UserError, so the command line
 * prints it as it always did; the management API answers it 404 `not_found`.
 */
export class NotFoundError extends UserError {
  override name = "NotFoundError";
}

/**
 * The change cannot be made as asked because of what is stored now: a duplicate id, a stale `If-Match`,
 * the last owner. The management API answers it 409 `conflict`.
 */
export class ConflictError extends UserError {
  override name = "ConflictError";
}

/** The caller is known but its role may not do this. The management API answers it 403 `forbidden`. */
export class ForbiddenError extends UserError {
  override name = "ForbiddenError";
}
