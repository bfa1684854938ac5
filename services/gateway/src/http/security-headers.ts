import type { NextFunction, Request, Response } from "express";
import helmet from "helmet";

/**
 * The security headers of every answer the app writes, errors and CSV included, from helmet:
 * `X-Content-Type-Options: nosniff`, `Referrer-Policy: no-referrer`, `X-Frame-Options`,
 * `Cross-Origin-Resource-Policy`, and a Content-Security-Policy for documents that load nothing, since the
 * API answers data only. Helmet's headers for pages that run in a browser's window (origin clustering,
 * DNS prefetch, downloads, Flash policies, the old XSS filter, the opener policy) are left off: every
 * header is paid for on each request. The dashboard sets its own policy over this one (routes/dashboard.ts).
 * Strict-Transport-Security goes only on answers served over HTTPS (Cloud Run's front end says so in
 * X-Forwarded-Proto): over plain HTTP, as on the local stack, a browser ignores it anyway.
 */
export function securityHeaders() {
  const everyAnswer = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    strictTransportSecurity: false,
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  });
  const overHttps = helmet.strictTransportSecurity();
  return (req: Request, res: Response, next: NextFunction) => {
    everyAnswer(req, res, () => (req.secure ? overHttps(req, res, next) : next()));
  };
}
