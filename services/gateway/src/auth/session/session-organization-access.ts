import { internalError, unauthorized } from "@usage-ingestion/shared";
import { locals, send } from "../../http/send.ts";
import type { AccessResolver } from "../organization-access.ts";
import { signedInEmail } from "./session-data.ts";
import type { SignIn } from "./sign-in.ts";

/**
 * People's sessions as a way into `/v1/orgs/{org}/...`, beside admin keys: a request without
 * `X-Api-Key` is judged by its session. A change made with a session passes the CSRF guard first (Origin
 * and token); the person's membership gives the role, and a non-member is left without access (404).
 */
export function sessionOrganizationAccess(signIn: SignIn): AccessResolver {
  return {
    applies: (req) => req.headers["x-api-key"] === undefined,
    resolve(req, res, next) {
      signIn.sessions(req, res, (error?: unknown) => {
        if (error) return send(res, internalError("The session could not be read; try again."));
        signIn.csrf.guard(req, res, () => {
          if (!signedInEmail(req)) return send(res, unauthorized("Sign in, or send an X-Api-Key header."));
          signIn.access(req, String(req.params.org ?? "")).then(
            (access) => {
              if (access) locals(res).access = access;
              next();
            },
            () => send(res, internalError("Your membership could not be read; try again.")),
          );
        });
      });
    },
  };
}
