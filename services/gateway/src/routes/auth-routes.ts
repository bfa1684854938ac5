import type { Logger } from "@usage-ingestion/shared/server";
import type express from "express";
import { requireMemberAccess, requireSignedIn } from "../auth/session/require-session.ts";
import type { SignIn } from "../auth/session/sign-in.ts";
import { methodNotAllowed } from "../http/fallbacks.ts";
import { parseJsonBody, requireJsonContentType } from "../http/json-body.ts";
import { authCallback } from "./auth-callback.ts";
import { authLogin } from "./auth-login.ts";
import { authLogout } from "./auth-logout.ts";
import { me } from "./v1/me.ts";
import { membersRoutes } from "./v1/members.ts";

/**
 * People's routes, served only where sign-in is configured (docs/sign-in.md): sign-in and out, `GET
 * /v1/me` and an organization's members. Each reads the session cookie; each change made with a session
 * passes the CSRF guard (Origin and token) before anything else looks at it.
 */
export function mountSignInRoutes(app: express.Express, signIn: SignIn, logger: Logger): void {
  const session = signIn.sessions;
  const guard = signIn.csrf.guard;
  const json = [requireJsonContentType, parseJsonBody];
  app.get("/auth/login", session, authLogin(signIn));
  app.all("/auth/login", methodNotAllowed("GET"));
  app.get("/auth/callback", session, authCallback(signIn, logger));
  app.all("/auth/callback", methodNotAllowed("GET"));
  app.post("/auth/logout", session, guard, authLogout(signIn));
  app.all("/auth/logout", methodNotAllowed("POST"));
  app.get("/v1/me", session, requireSignedIn, me(signIn));
  app.all("/v1/me", methodNotAllowed("GET"));
  const members = membersRoutes(signIn);
  app.get("/v1/orgs/:org/members", session, requireMemberAccess(signIn, "viewer"), members.list);
  app.post("/v1/orgs/:org/members", session, guard, requireMemberAccess(signIn, "owner"), json, members.invite);
  app.all("/v1/orgs/:org/members", methodNotAllowed("GET, POST"));
  app.patch("/v1/orgs/:org/members/:email", session, guard, requireMemberAccess(signIn, "owner"), json, members.change);
  app.delete("/v1/orgs/:org/members/:email", session, guard, requireMemberAccess(signIn, "owner"), members.remove);
  app.all("/v1/orgs/:org/members/:email", methodNotAllowed("PATCH, DELETE"));
}
