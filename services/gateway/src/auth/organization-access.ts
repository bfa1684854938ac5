import {
  apiKeyId,
  type KeyStore,
  ORG_ID,
  type OrganizationAccess,
  type Role,
  roleAllows,
} from "@usage-ingestion/organizations";
import { forbidden, notFound, unauthorized } from "@usage-ingestion/shared";
import type { Logger } from "@usage-ingestion/shared/server";
import type { NextFunction, Request, Response } from "express";
import { locals, send } from "../http/send.ts";
import type { RateLimits } from "../limits/rate-limits.ts";
import { authenticate } from "./authenticate.ts";

/**
 * One way of recognising a caller of `/v1/orgs/{org}/...`: an admin API key (below), a person's session
 * (the sign-in work plugs in through `GatewayDeps.access`). The first resolver that `applies` to a request
 * decides it alone: the key resolver is tried first, so a request with `X-Api-Key` is judged by its key.
 */
export interface AccessResolver {
  /** Whether the request carries this resolver's credentials (a key header, a session cookie). */
  applies(req: Request): boolean;
  /**
   * Sets `locals(res).access` to the caller's access to `req.params.org` and calls `next`; leaves it
   * unset for a caller who is not a member (answered 404, as for an organization that does not exist);
   * or answers the refusal itself (401 for bad credentials, 429, 500 when it cannot tell).
   */
  resolve(req: Request, res: Response, next: NextFunction): void;
}

/**
 * An `admin` key acts with the role `admin` in its own organization only; keys of other scopes are
 * refused as the usage API refuses a key outside its scope (401), and another organization's path is 404.
 */
export function adminKeyAccess(
  keys: KeyStore,
  logger: Logger,
  limits: RateLimits,
  seen?: (keyHash: string) => void,
): AccessResolver {
  const check = authenticate(keys, logger, limits, "admin", send, seen);
  return {
    applies: (req) => req.headers["x-api-key"] !== undefined,
    resolve(req, res, next) {
      check(req, res, () => {
        const context = locals(res);
        if (context.organizationId === req.params.org) {
          const id = context.keyId ?? apiKeyId(context.key?.hash ?? "");
          context.access = {
            organizationId: context.organizationId as string,
            role: "admin",
            actor: { type: "api_key", id },
          } satisfies OrganizationAccess;
        }
        next();
      });
    },
  };
}

const notMember = (org: string) => notFound(`Organization "${org}" does not exist or is not yours.`);

/**
 * The caller's access to the organization of the path, by the first resolver that applies; none: 401.
 * Anyone who is not a member gets 404 for everything under the organization, its existence not revealed.
 */
export function organizationAccess(resolvers: readonly AccessResolver[]) {
  return (req: Request, res: Response, next: NextFunction) => {
    const org = String(req.params.org ?? "");
    const resolver = resolvers.find((candidate) => candidate.applies(req));
    if (!resolver) return send(res, unauthorized("The X-Api-Key header is required."));
    // An id no organization can have is answered after the credentials, as any other non-member's.
    resolver.resolve(req, res, () => {
      const access = locals(res).access;
      if (!ORG_ID.test(org) || !access || access.organizationId !== org) return send(res, notMember(org));
      next();
    });
  };
}

/** After organizationAccess: 403 `forbidden` when the caller's role is below `needed`. */
export function requireRole(needed: Role) {
  return (_req: Request, res: Response, next: NextFunction) => {
    const access = locals(res).access as OrganizationAccess;
    if (!roleAllows(access.role, needed)) {
      return send(res, forbidden(`This needs the role ${needed}; yours is ${access.role}.`));
    }
    next();
  };
}
