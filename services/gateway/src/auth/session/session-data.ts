import type { Request } from "express";
import "express-session";

/** What a session holds: the sign-in in progress, then the person. Nothing else is kept in it. */
declare module "express-session" {
  interface SessionData {
    /** Between /auth/login and /auth/callback: what openid-client checks the answer against. */
    pending?: { verifier: string; state: string; nonce: string; returnTo: string };
    /** After the callback: the verified email and when they signed in (sessions end after a fixed time). */
    person?: { email: string; signedInAt: number };
    /** csrf-sync's synchronizer token. */
    csrfToken?: string;
  }
}

/** The signed-in person's email, when the request carries a live session. */
export const signedInEmail = (req: Request): string | undefined => req.session?.person?.email;
