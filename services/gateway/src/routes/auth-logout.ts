import type { Request, Response } from "express";
import type { SignIn } from "../auth/session/sign-in.ts";

/**
 * POST /auth/logout: ends the session on the server (its document deleted, so the cookie no longer
 * works anywhere, even if kept) and clears the cookie. 204 also when there was no session. The CSRF
 * guard runs before it: another site cannot sign a person out.
 */
export function authLogout(signIn: SignIn) {
  return async (req: Request, res: Response) => {
    if (req.session) {
      await new Promise<void>((resolve, reject) => req.session.destroy((error) => (error ? reject(error) : resolve())));
    }
    const { cookieName, secureCookie } = signIn.config;
    res.clearCookie(cookieName, { path: "/", httpOnly: true, secure: secureCookie, sameSite: "lax" });
    res.setHeader("Cache-Control", "no-store");
    res.status(204).end();
  };
}
