import { membershipsOf } from "@usage-ingestion/members";
import type { Request, Response } from "express";
import { CSRF_HEADER } from "../../auth/session/csrf.ts";
import { signedInEmail } from "../../auth/session/session-data.ts";
import type { SignIn } from "../../auth/session/sign-in.ts";

/**
 * GET /v1/me: who is signed in and the organizations they belong to, with their role in each. The
 * session's CSRF token rides in the `X-CSRF-Token` header, for the browser to send back on changes.
 */
export function me(signIn: SignIn) {
  return async (req: Request, res: Response) => {
    const email = signedInEmail(req) as string;
    const organizations = await membershipsOf(signIn.db, email);
    res.setHeader(CSRF_HEADER, await signIn.csrf.token(req));
    res.setHeader("Cache-Control", "no-store");
    res.status(200).json({ email, organizations });
  };
}
