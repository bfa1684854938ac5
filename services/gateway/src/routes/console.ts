import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Request, Response } from "express";
import { CONSOLE_PAGES, CONSOLE_ROOT } from "../../console/paths.ts";

/**
 * `GET /console` and each of its pages: the same HTML page (the console routes in the browser, from the
 * path and query), its bundle (built from services/gateway/console/ and committed) and stylesheet. The
 * files hold nothing secret; everything the console shows it reads with the person's session.
 */
const resolve = createRequire(import.meta.url).resolve;
/** The packaged gateway (dist/) carries its assets beside the bundle. */
const PACKAGED = join(dirname(fileURLToPath(import.meta.url)), "public");
const PUBLIC = existsSync(PACKAGED)
  ? PACKAGED
  : join(dirname(resolve("@usage-ingestion/gateway/package.json")), "public");

const html = { path: join(PUBLIC, "console", "console.html"), type: "text/html; charset=utf-8" };
const FILES: Record<string, { path: string; type: string }> = {
  [CONSOLE_ROOT]: html,
  ...Object.fromEntries(CONSOLE_PAGES.map((page) => [`${CONSOLE_ROOT}/${page.path}`, html])),
  [`${CONSOLE_ROOT}/assets/console.js`]: {
    path: join(PUBLIC, "console", "console.js"),
    type: "text/javascript; charset=utf-8",
  },
  [`${CONSOLE_ROOT}/assets/console.css`]: {
    path: join(PUBLIC, "console", "console.css"),
    type: "text/css; charset=utf-8",
  },
  [`${CONSOLE_ROOT}/assets/favicon.svg`]: { path: join(PUBLIC, "favicon.svg"), type: "image/svg+xml" },
};
export const CONSOLE_PATHS = Object.keys(FILES);

/**
 * Scripts and styles from this origin only (no inline script, no inline style), requests to this origin
 * only, no framing, no plugins, no base or form target elsewhere.
 */
export const CONSOLE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

const SECURITY_HEADERS = {
  "Content-Security-Policy": CONSOLE_CSP,
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "Cache-Control": "no-cache",
};

export function consoleFile(req: Request, res: Response) {
  // Express matches /console/ as /console; one name per file.
  const file = FILES[req.path.replace(/(.)\/$/, "$1")] as { path: string; type: string };
  res.set(SECURITY_HEADERS).type(file.type).sendFile(file.path);
}
