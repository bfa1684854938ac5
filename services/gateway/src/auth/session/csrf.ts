import { forbidden } from "@usage-ingestion/shared";
import { csrfSync } from "csrf-sync";
import type { NextFunction, Request, Response } from "express";
import { send } from "../../http/send.ts";
import { signedInEmail } from "./session-data.ts";

/** The request header a browser sends the token in; `GET /v1/me` answers it in the same header. */
export const CSRF_HEADER = "X-CSRF-Token";
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Cross-site request forgery, for state-changing requests made with a session: the `Origin` must be the
 * gateway's own (a form posted from another site carries its own), and the synchronizer token of
 * csrf-sync, kept in the session, must come back in `X-CSRF-Token` (a header no cross-site form can set).
 * Requests with an API key carry no cookie's authority and are not checked here.
 */
export function csrfProtection(publicOrigin: string) {
  const { generateToken, isRequestValid } = csrfSync({
    getTokenFromRequest: (req) => req.get(CSRF_HEADER),
  });
  const guard = (req: Request, res: Response, next: NextFunction) => {
    // Without a person signed in, the cookie gives no authority to forge: the route's own check answers.
    if (SAFE_METHODS.has(req.method) || !signedInEmail(req)) return next();
    if (req.get("origin") !== publicOrigin) {
      return send(res, forbidden(`A request made with a session must come from ${publicOrigin} (its Origin header).`));
    }
    if (!isRequestValid(req)) {
      return send(res, forbidden(`The ${CSRF_HEADER} header is missing or wrong; GET /v1/me answers it.`));
    }
    next();
  };
  /**
   * The session's token, made on first use. A new token is saved before it is answered: express-session
   * would save at the response's end, after the headers left, and a client that sends the header back at
   * once could otherwise arrive before the session holding it was stored.
   */
  const token = async (req: Request): Promise<string> => {
    const before = req.session.csrfToken;
    const made = generateToken(req);
    if (made !== before) {
      await new Promise<void>((resolve, reject) => req.session.save((error) => (error ? reject(error) : resolve())));
    }
    return made;
  };
  return { guard, token };
}
