import { ROLES } from "@usage-ingestion/organizations";
import * as v from "valibot";
import { InvitationSchema, type memberJson, RoleChangeSchema } from "../../routes/v1/members-requests.ts";
import { jsonSchemaOf } from "../json-schema.ts";
import {
  body,
  errors,
  json,
  listOf,
  noContent,
  type OpenApiPart,
  orgParameter,
  pageParameters,
  pathParameter,
  ref,
  sessionOnly,
} from "./operations.ts";

/** A member as the routes answer it (memberJson), tied to it so the two cannot drift apart. */
const MemberSchema = v.object({
  email: v.string(),
  role: v.picklist(ROLES),
  status: v.picklist(["invited", "active"]),
  invited_by: v.pipe(v.string(), v.description("The inviting owner's email, or `operator:<name>`.")),
  joined_at: v.pipe(v.nullable(v.string()), v.description("Null until the invitation takes effect.")),
});
type Member = ReturnType<typeof memberJson>;
export const memberSchemaMatches: [Member] extends [v.InferOutput<typeof MemberSchema>]
  ? [v.InferOutput<typeof MemberSchema>] extends [Member]
    ? true
    : false
  : false = true;

const members = "/v1/orgs/{org}/members";
const email = pathParameter("email", "The member's email (any case).");
/** Members are people's business: a session only, never an API key (403 for one, 401 without either). */
const seen = { ...errors.unauthorized, ...errors.notFound };
const changed = { ...seen, ...errors.forbidden, ...errors.conflict };

/** `/v1/orgs/{org}/members` (routes/v1/members.ts): any member lists, an owner changes. */
export const membersPart: OpenApiPart = {
  schemas: { Member: jsonSchemaOf(MemberSchema) },
  paths: {
    [members]: {
      get: {
        summary: "The organization's members, by email (viewer).",
        description: "Unknown query parameters are a 400.",
        security: sessionOnly.read,
        parameters: [orgParameter, ...pageParameters],
        responses: { "200": json(listOf("members", ref("Member")), "A page of members."), ...errors.badQuery, ...seen },
      },
      post: {
        summary: "Invites a person by email (owner); it takes effect when they sign in with that verified email.",
        security: sessionOnly.change,
        parameters: [orgParameter],
        requestBody: body(InvitationSchema),
        responses: { "201": json(ref("Member"), "The invitation."), ...errors.badBody, ...changed },
      },
    },
    [`${members}/{email}`]: {
      patch: {
        summary: "Changes a member's role (owner); demoting the last owner is 409.",
        security: sessionOnly.change,
        parameters: [orgParameter, email],
        requestBody: body(RoleChangeSchema),
        responses: { "200": json(ref("Member"), "The member as changed."), ...errors.badBody, ...changed },
      },
      delete: {
        summary: "Removes a member (owner); removing the last owner is 409.",
        security: sessionOnly.change,
        parameters: [orgParameter, email],
        responses: { "204": noContent("Removed."), ...changed },
      },
    },
  },
};
