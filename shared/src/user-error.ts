/**
 * A mistake of the caller's (unknown organization, duplicate id, a value out of bounds): the command line
 * prints it without a stack trace; an HTTP edge answers it as the caller's error, never as a 500.
 */
export class UserError extends Error {
  override name = "UserError";
}
