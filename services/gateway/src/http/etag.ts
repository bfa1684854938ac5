import type { Request } from "express";

/** The `If-Match` the client sent, unquoted (`"abc"`, `W/"abc"` and `abc` all mean abc); undefined: none. */
export function ifMatch(req: Request): string | undefined {
  const header = req.get("if-match");
  if (header === undefined) return undefined;
  return header
    .trim()
    .replace(/^W\//, "")
    .replace(/^"(.*)"$/, "$1")
    .slice(0, 200);
}
