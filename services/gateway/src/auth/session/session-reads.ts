import { getOrganization } from "@usage-ingestion/organizations";
import { notFound, validationFailed } from "@usage-ingestion/shared";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { locals, send } from "../../http/send.ts";
import { signedInEmail } from "./session-data.ts";
import type { SignIn } from "./sign-in.ts";

/**
 * The read routes (`/usage/costs`, `/usage/unpriced`, `/usage/budgets`) for a person signed in: the
 * organization is named by the query parameter `org`, any role may read. A request that sends
 * `X-Api-Key`, or has no live session, goes to the key's authentication (`byKey`) as before, so the
 * answers to keys are unchanged.
 */
export function readKeyOrSession(signIn: SignIn, byKey: RequestHandler): RequestHandler {
  const bySession = async (req: Request, res: Response, next: NextFunction) => {
    const email = signedInEmail(req);
    if (!email) return byKey(req, res, next);
    const org = req.query.org;
    if (typeof org !== "string" || org.length === 0) {
      return send(
        res,
        validationFailed([
          { field: "org", code: "required", message: "org must name one organization when signed in" },
        ]),
      );
    }
    const access = await signIn.access(req, org);
    const organization = access && (await getOrganization(signIn.db, org).catch(() => undefined));
    if (organization?.status !== "active") return send(res, notFound(`No organization ${org.slice(0, 63)}.`));
    const context = locals(res);
    context.organizationId = org;
    context.dimensions = organization.dimensions ?? [];
    // Each person is limited as a key is, apart from the organization's keys.
    context.key = { hash: `session:${email}`, limits: organization.limits };
    // The reports refuse parameters they do not know; `org` is the session's, so it is taken off the URL
    // (Express reads req.query from it) and the reports' own check stays as strict for both.
    const url = new URL(req.url, "http://gateway");
    url.searchParams.delete("org");
    req.url = url.pathname + url.search;
    next();
  };
  return (req, res, next) => {
    if (req.headers["x-api-key"] !== undefined) return byKey(req, res, next);
    signIn.sessions(req, res, (error?: unknown) => {
      if (error) return next(error);
      bySession(req, res, next).catch(next);
    });
  };
}
