import { validationFailed } from "@usage-ingestion/shared";
import type { Request, Response } from "express";
import { redirectOnceStored } from "../auth/session/sessions.ts";
import type { SignIn } from "../auth/session/sign-in.ts";
import { send } from "../http/send.ts";

/** Where a person lands after signing in when the login named nowhere. */
export const DEFAULT_RETURN_PATH = "/console";
const MAX_RETURN_PATH = 2_048;

/**
 * A path on this gateway only: it starts with one `/`, never `//` or `/\` (which browsers read as another
 * host), and holds no control character. Anything else could send a person elsewhere after sign-in.
 */
export function safeReturnPath(value: unknown): string | undefined {
  if (value === undefined) return DEFAULT_RETURN_PATH;
  if (typeof value !== "string" || value.length > MAX_RETURN_PATH) return undefined;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (!/^\/(?![/\\])/.test(value) || /[\u0000-\u001f\u007f\\]/.test(value)) return undefined;
  return value;
}

/** GET /auth/login[?return_to=/path]: starts a sign-in at the issuer (PKCE, state and nonce by openid-client). */
export function authLogin(signIn: SignIn) {
  return async (req: Request, res: Response) => {
    const returnTo = safeReturnPath(req.query.return_to);
    if (!returnTo) {
      return send(
        res,
        validationFailed([
          {
            field: "return_to",
            code: "invalid_value",
            message: "return_to must be a path on this site, such as /console",
          },
        ]),
      );
    }
    const { url, verifier, state, nonce } = await signIn.relyingParty.start();
    req.session.pending = { verifier, state, nonce, returnTo };
    await new Promise<void>((resolve, reject) => req.session.save((error) => (error ? reject(error) : resolve())));
    res.setHeader("Cache-Control", "no-store");
    redirectOnceStored(res, url.href);
  };
}
