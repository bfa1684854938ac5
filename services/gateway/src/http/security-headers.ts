import type { IncomingMessage, ServerResponse } from "node:http";
import type { NextFunction, Request, Response } from "express";
import helmet from "helmet";

type Header = readonly [name: string, value: string];

/**
 * The headers a helmet middleware sets, read once by running it against a response that only records
 * them: helmet stays the source of every name and value, and a request pays for a few `setHeader` calls
 * instead of a chain of one middleware per header (each rebuilding its value).
 */
function headersOf(middleware: (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void) {
  const headers: Header[] = [];
  const recorder = {
    setHeader(name: string, value: string) {
      headers.push([name, String(value)]);
    },
    removeHeader() {},
  };
  let done = false;
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, () => {
    done = true;
  });
  if (!done) throw new Error("a security header middleware did not finish at once");
  return headers;
}

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
  const everyAnswer = headersOf(
    helmet({
      contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
      strictTransportSecurity: false,
      crossOriginOpenerPolicy: false,
      originAgentCluster: false,
      xDnsPrefetchControl: false,
      xDownloadOptions: false,
      xPermittedCrossDomainPolicies: false,
      xXssProtection: false,
    }),
  );
  const overHttps = headersOf(helmet.strictTransportSecurity());
  return (req: Request, res: Response, next: NextFunction) => {
    for (const [name, value] of everyAnswer) res.setHeader(name, value);
    if (req.secure) for (const [name, value] of overHttps) res.setHeader(name, value);
    next();
  };
}
