import type { NextFunction, Request, Response } from "express";
import session from "express-session";
import "./session-data.ts";
import type { SignInConfig } from "./sign-in-config.ts";

/**
 * The session cookie: `HttpOnly`, `SameSite=Lax`, `Secure` and `__Host-` wherever the gateway is HTTPS
 * (sign-in-config.ts). Nothing is stored for a visitor who never starts a sign-in. A session ends a fixed
 * time after sign-in however active it is (the store's expiry slides with use; this does not).
 */
export function sessions(config: SignInConfig, store: session.Store) {
  const middleware = session({
    name: config.cookieName,
    secret: config.sessionSecret,
    store,
    resave: false,
    saveUninitialized: false,
    unset: "destroy",
    cookie: { httpOnly: true, secure: config.secureCookie, sameSite: "lax", path: "/", maxAge: config.maxAgeMs },
  });
  return (req: Request, res: Response, next: NextFunction) =>
    middleware(req, res, (error?: unknown) => {
      if (error) return next(error);
      const person = req.session?.person;
      if (person && Date.now() - person.signedInAt > config.maxAgeMs) {
        return req.session.destroy((destroyError) => next(destroyError));
      }
      next();
    });
}

/**
 * A 303 to `location`, with no body, once the session is stored. express-session stores a session that
 * changed when the response ends, but when the response has a body it sends the headers and most of the
 * body first (its `res.end`), so a browser can follow the redirect, and come back, before the session is
 * stored; and a session made anew by `regenerate` is stored there again even after an explicit save, a
 * late write that can overwrite what the next request stored (the CSRF token). Without a body nothing
 * is sent until the store has answered.
 */
export function redirectOnceStored(res: Response, location: string): void {
  // `location` encodes the address as `redirect` would (a return path may hold any character).
  res.status(303).location(location).end();
}
