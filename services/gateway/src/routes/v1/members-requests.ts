import { MAX_EMAIL_LENGTH, type MemberDocument, MembersError, normalizeEmail } from "@usage-ingestion/members";
import { ROLES, type Role } from "@usage-ingestion/organizations";
import {
  checkWithCode,
  conflict,
  type ErrorReply,
  type FieldError,
  jsonObject,
  notFound,
  toFieldErrors,
  validationFailed,
} from "@usage-ingestion/shared";
import * as v from "valibot";

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

/** A member's email: any text `normalizeEmail` keeps (it is then keyed in lower case). */
const email = v.pipe(
  v.string("must be an email address"),
  v.maxLength(MAX_EMAIL_LENGTH, `must be at most ${MAX_EMAIL_LENGTH} characters`),
  checkWithCode<string>("invalid_format", (text) => normalizeEmail(text) !== undefined, "must be an email address"),
);
const role = v.picklist(ROLES, `must be one of ${ROLES.join(", ")}`);

/** POST body: `{ email, role }`; what the route validates and /openapi.json shows. */
export const InvitationSchema = jsonObject(v.strictObject({ email, role }, "holds an unknown field"));
/** PATCH body: `{ role }`. */
export const RoleChangeSchema = jsonObject(v.strictObject({ role }, "holds an unknown field"));

function parsed<TSchema extends v.GenericSchema>(schema: TSchema, body: unknown): Parsed<v.InferOutput<TSchema>> {
  const result = v.safeParse(schema, body, { abortPipeEarly: true });
  return result.success ? { ok: true, value: result.output } : failed(toFieldErrors(result.issues, { root: "body" }));
}

export function parseInvitation(body: unknown): Parsed<{ email: string; role: Role }> {
  const invitation = parsed(InvitationSchema, body);
  if (!invitation.ok) return invitation;
  return { ok: true, value: { email: normalizeEmail(invitation.value.email) as string, role: invitation.value.role } };
}

export function parseRoleChange(body: unknown): Parsed<{ role: Role }> {
  return parsed(RoleChangeSchema, body);
}

/** The members package's typed errors, answered; anything else is not ours to map. */
export function membersErrorReply(error: unknown): ErrorReply | undefined {
  if (!(error instanceof MembersError)) return undefined;
  return error.reason === "conflict" ? conflict(error.message) : notFound(error.message);
}
