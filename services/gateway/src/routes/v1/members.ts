import {
  changeMemberRole,
  findMember,
  inviteMember,
  listMembers,
  normalizeEmail,
  removeMember,
} from "@usage-ingestion/members";
import type { OrganizationAccess } from "@usage-ingestion/organizations";
import { notFound } from "@usage-ingestion/shared";
import type { NextFunction, Request, Response } from "express";
import type { SignIn } from "../../auth/session/sign-in.ts";
import { send } from "../../http/send.ts";
import { changeOf } from "./change-context.ts";
import {
  memberJson,
  membersErrorReply,
  pageToken,
  parseInvitation,
  parseListQuery,
  parseRoleChange,
} from "./members-requests.ts";

/**
 * The members of an organization (`/v1/orgs/{org}/members`): any member lists them, an owner invites,
 * changes and removes. requireMemberAccess (before these) has decided who the caller is and their role.
 */
const accessOf = (res: Response) => res.locals.access as OrganizationAccess;

/** The member in the path, normalized; an address that cannot be a member is simply not one. */
const pathEmail = (req: Request) => normalizeEmail(req.params.email);

const answering =
  (handler: (req: Request, res: Response) => Promise<void>) => (req: Request, res: Response, next: NextFunction) =>
    handler(req, res).catch((error: unknown) => {
      const reply = membersErrorReply(error);
      if (reply) return send(res, reply);
      next(error);
    });

export function membersRoutes(signIn: SignIn) {
  const { db } = signIn;
  return {
    list: answering(async (req, res) => {
      const query = parseListQuery(req.query as Record<string, unknown>);
      if (!query.ok) return send(res, query.reply);
      const page = await listMembers(db, accessOf(res).organizationId, query.value);
      res.status(200).json({
        members: page.members.map(memberJson),
        ...(page.next ? { next_page_token: pageToken(page.next) } : {}),
      });
    }),

    invite: answering(async (req, res) => {
      const invitation = parseInvitation(req.body);
      if (!invitation.ok) return send(res, invitation.reply);
      const access = accessOf(res);
      const { email, role } = invitation.value;
      const member = await inviteMember(db, access.organizationId, email, role, changeOf(res));
      res.status(201).json(memberJson(member));
    }),

    change: answering(async (req, res) => {
      const email = pathEmail(req);
      if (!email) return send(res, notFound("No such member in this organization."));
      const change = parseRoleChange(req.body);
      if (!change.ok) return send(res, change.reply);
      const member = await changeMemberRole(db, accessOf(res).organizationId, email, change.value.role, changeOf(res));
      res.status(200).json(memberJson(member));
    }),

    remove: answering(async (req, res) => {
      const email = pathEmail(req);
      if (!email || !(await findMember(db, accessOf(res).organizationId, email))) {
        return send(res, notFound("No such member in this organization."));
      }
      await removeMember(db, accessOf(res).organizationId, email, changeOf(res));
      res.status(204).end();
    }),
  };
}
