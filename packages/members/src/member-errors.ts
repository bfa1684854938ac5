/**
 * What went wrong with a change to members, for the edge to answer: `not_found` (no such member, or an
 * organization the caller may not know of) or `conflict` (the last owner, a member already there).
 * Packages never build an error reply; the gateway maps these.
 */
export class MembersError extends Error {
  override name = "MembersError";
  constructor(
    readonly reason: "not_found" | "conflict",
    message: string,
  ) {
    super(message);
  }
}
