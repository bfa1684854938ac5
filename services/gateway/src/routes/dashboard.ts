import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Request, Response } from "express";

/**
 * `GET /dashboard` and its assets: static files from the gateway package's `public/`, and Chart.js as
 * installed from npm (nothing is loaded from elsewhere). The page asks for a read key and calls the
 * report routes with it; the files themselves hold nothing secret.
 */
/** The UMD build Chart.js ships, served as it is. */
export const CHART_FILE = "chart.umd.min.js";

const resolve = createRequire(import.meta.url).resolve;
/** The packaged gateway (dist/) carries its assets beside the bundle, Chart.js included. */
const PACKAGED = join(dirname(fileURLToPath(import.meta.url)), "public");
const PUBLIC = existsSync(PACKAGED)
  ? PACKAGED
  : join(dirname(resolve("@usage-ingestion/gateway/package.json")), "public");
const CHART = existsSync(PACKAGED)
  ? join(PACKAGED, "vendor", CHART_FILE)
  : join(dirname(resolve("chart.js")), CHART_FILE);

const JS = "text/javascript; charset=utf-8";
const ICON = { path: join(PUBLIC, "favicon.svg"), type: "image/svg+xml" };
const FILES: Record<string, { path: string; type: string }> = {
  "/dashboard": { path: join(PUBLIC, "dashboard.html"), type: "text/html; charset=utf-8" },
  "/dashboard/dashboard.js": { path: join(PUBLIC, "dashboard.js"), type: JS },
  "/dashboard/money-format.js": { path: join(PUBLIC, "money-format.js"), type: JS },
  "/dashboard/dashboard.css": { path: join(PUBLIC, "dashboard.css"), type: "text/css; charset=utf-8" },
  "/dashboard/favicon.svg": ICON,
  "/dashboard/vendor/chart.umd.min.js": { path: CHART, type: JS },
  // Browsers ask for /favicon.ico on their own (for pages without a <link rel="icon">, such as
  // /openapi.json opened in a tab); the same SVG, under its own type, answers instead of a 404.
  "/favicon.ico": ICON,
};
export const DASHBOARD_PATHS = Object.keys(FILES);

const SECURITY_HEADERS = {
  "Content-Security-Policy":
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "Cache-Control": "no-cache",
};

export function dashboardFile(req: Request, res: Response) {
  const file = FILES[req.path] as { path: string; type: string };
  res.set(SECURITY_HEADERS).type(file.type).sendFile(file.path);
}
