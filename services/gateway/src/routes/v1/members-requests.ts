import { type MemberDocument, MembersError, normalizeEmail } from "@usage-ingestion/members";
import { ROLES, type Role } from "@usage-ingestion/organizations";
import { conflict, type ErrorReply, type FieldError, notFound, validationFailed } from "@usage-ingestion/shared";

/** Lists: `limit` 1-1,000 (default 100) and an opaque `page_token` (the spec's resources). */
export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1_000;

export type Parsed<T> = { ok: true; value: T } | { ok: false; reply: ErrorReply };
const failed = (details: FieldError[]): { ok: false; reply: ErrorReply } => ({
  ok: false,
  reply: validationFailed(details),
});

/** A member as the API answers it. */
export const memberJson = (member: MemberDocument) => ({
  email: member.email,
  role: member.role,
  status: member.status,
  invited_by: member.invited_by,
  joined_at: member.joined_at,
});

export function parseListQuery(query: Record<string, unknown>): Parsed<{ limit: number; after?: string }> {
  const details: FieldError[] = [];
  for (const name of Object.keys(query)) {
    if (name !== "limit" && name !== "page_token") {
      details.push({
        field: name.slice(0, 64),
        code: "invalid_value",
        message: `unknown parameter ${name.slice(0, 64)}`,
      });
    }
  }
  let limit = DEFAULT_LIMIT;
  if (query.limit !== undefined) {
    const text = query.limit;
    if (typeof text !== "string" || !/^\d{1,7}$/.test(text)) {
      details.push({ field: "limit", code: "invalid_type", message: "limit must be a whole number" });
    } else if (Number(text) < 1 || Number(text) > MAX_LIMIT) {
      details.push({ field: "limit", code: "too_large", message: `limit must be 1 to ${MAX_LIMIT}` });
    } else limit = Number(text);
  }
  let after: string | undefined;
  if (query.page_token !== undefined) {
    const decoded =
      typeof query.page_token === "string" && query.page_token.length <= 400
        ? normalizeEmail(Buffer.from(query.page_token, "base64url").toString("utf8"))
        : undefined;
    if (!decoded)
      details.push({ field: "page_token", code: "invalid_format", message: "page_token is not one this list gave" });
    after = decoded;
  }
  if (details.length > 0) return failed(details);
  return { ok: true, value: after === undefined ? { limit } : { limit, after } };
}

export const pageToken = (email: string) => Buffer.from(email, "utf8").toString("base64url");

const isObject = (body: unknown): body is Record<string, unknown> =>
  typeof body === "object" && body !== null && !Array.isArray(body);

function parseRole(value: unknown, details: FieldError[]): Role | undefined {
  if (value === undefined) {
    details.push({ field: "role", code: "required", message: "role is required" });
    return undefined;
  }
  const role = ROLES.find((known) => known === value);
  if (!role) details.push({ field: "role", code: "invalid_value", message: `role must be one of ${ROLES.join(", ")}` });
  return role;
}

function onlyKnown(body: Record<string, unknown>, known: string[], details: FieldError[]) {
  for (const name of Object.keys(body)) {
    if (!known.includes(name)) {
      details.push({ field: name.slice(0, 64), code: "invalid_value", message: `unknown field ${name.slice(0, 64)}` });
    }
  }
}

/** POST body: `{ email, role }`. */
export function parseInvitation(body: unknown): Parsed<{ email: string; role: Role }> {
  if (!isObject(body)) return failed([{ field: "body", code: "invalid_type", message: "body must be a JSON object" }]);
  const details: FieldError[] = [];
  onlyKnown(body, ["email", "role"], details);
  const email = normalizeEmail(body.email);
  if (body.email === undefined) details.push({ field: "email", code: "required", message: "email is required" });
  else if (!email) details.push({ field: "email", code: "invalid_format", message: "email must be an email address" });
  const role = parseRole(body.role, details);
  if (details.length > 0 || !email || !role) return failed(details);
  return { ok: true, value: { email, role } };
}

/** PATCH body: `{ role }`. */
export function parseRoleChange(body: unknown): Parsed<{ role: Role }> {
  if (!isObject(body)) return failed([{ field: "body", code: "invalid_type", message: "body must be a JSON object" }]);
  const details: FieldError[] = [];
  onlyKnown(body, ["role"], details);
  const role = parseRole(body.role, details);
  if (details.length > 0 || !role) return failed(details);
  return { ok: true, value: { role } };
}

/** The members package's typed errors, answered; anything else is not ours to map. */
export function membersErrorReply(error: unknown): ErrorReply | undefined {
  if (!(error instanceof MembersError)) return undefined;
  return error.reason === "conflict" ? conflict(error.message) : notFound(error.message);
}
