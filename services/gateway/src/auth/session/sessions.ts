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
