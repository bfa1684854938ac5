import { activateInvitations, normalizeEmail } from "@usage-ingestion/members";
import { unauthorized } from "@usage-ingestion/shared";
import type { Logger } from "@usage-ingestion/shared/server";
import type { Request, Response } from "express";
import { redirectOnceStored } from "../auth/session/sessions.ts";
import type { SignIn } from "../auth/session/sign-in.ts";
import { locals, send } from "../http/send.ts";

/**
 * GET /auth/callback: the issuer's answer, checked by openid-client against what the login kept (state,
 * nonce, PKCE verifier). A person is their verified `email`; an email the issuer has not verified is
 * refused. The session is made anew (no id from before sign-in survives it), invitations to that email
 * take effect, and the browser goes where the login asked.
 */
export function authCallback(signIn: SignIn, logger: Logger) {
  return async (req: Request, res: Response) => {
    res.setHeader("Cache-Control", "no-store");
    const pending = req.session.pending;
    if (!pending) return send(res, unauthorized("No sign-in is in progress in this browser; start at /auth/login."));
    let signedIn: Awaited<ReturnType<SignIn["relyingParty"]["finish"]>>;
    try {
      signedIn = await signIn.relyingParty.finish(new URL(req.originalUrl, signIn.config.publicOrigin), pending);
    } catch (error) {
      logger.log("WARNING", "sign-in refused by the relying party", { request_id: locals(res).requestId, error });
      delete req.session.pending;
      return send(res, unauthorized("The sign-in could not be completed; start again at /auth/login."));
    }
    const email = normalizeEmail(signedIn.email);
    if (!email || !signedIn.emailVerified) {
      delete req.session.pending;
      return send(res, unauthorized("The issuer has not verified this account's email, so it cannot sign in here."));
    }
    await new Promise<void>((resolve, reject) =>
      req.session.regenerate((error) => (error ? reject(error) : resolve())),
    );
    req.session.person = { email, signedInAt: Date.now() };
    await activateInvitations(signIn.db, email, locals(res).requestId);
    await new Promise<void>((resolve, reject) => req.session.save((error) => (error ? reject(error) : resolve())));
    redirectOnceStored(res, pending.returnTo);
  };
}
