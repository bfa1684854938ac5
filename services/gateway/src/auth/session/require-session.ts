import type { Role } from "@usage-ingestion/organizations";
import { roleAllows } from "@usage-ingestion/organizations";
import { forbidden, notFound, unauthorized } from "@usage-ingestion/shared";
import type { NextFunction, Request, Response } from "express";
import { locals, send } from "../../http/send.ts";
import { signedInEmail } from "./session-data.ts";
import type { SignIn } from "./sign-in.ts";

export const signInRequired = () => unauthorized("Sign in first: GET /auth/login.");

/** A person signed in, or 401. */
export function requireSignedIn(req: Request, res: Response, next: NextFunction) {
  if (!signedInEmail(req)) return send(res, signInRequired());
  next();
}

/**
 * The person's access to the organization in the path, with at least `needed`: 401 without a session,
 * 404 for a non-member, 403 for a member whose role falls short. The access lands in `res.locals.access`.
 * Members are managed by people only: an API key never reaches past this.
 */
export function requireMemberAccess(signIn: SignIn, needed: Role) {
  return async (req: Request, res: Response, next: NextFunction) => {
    if (!signedInEmail(req)) {
      if (req.headers["x-api-key"] !== undefined && needed === "owner") {
        return send(res, forbidden("Members are managed by an owner signed in, never with an API key."));
      }
      return send(res, signInRequired());
    }
    const organizationId = String(req.params.org ?? "");
    const access = await signIn.access(req, organizationId);
    if (!access) return send(res, notFound(`No organization ${organizationId.slice(0, 63)}.`));
    if (!roleAllows(access.role, needed)) {
      return send(res, forbidden(`This needs the role ${needed}; you are ${access.role} in ${organizationId}.`));
    }
    locals(res).organizationId = organizationId;
    res.locals.access = access;
    next();
  };
}
