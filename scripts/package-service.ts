import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { BUNDLES, bundle } from "./lib/bundle.ts";
import {
  allowScriptsFor,
  SERVICES,
  type ServiceName,
  serviceLockfile,
  serviceManifest,
} from "./lib/service-package.ts";
import { REPO_ROOT } from "./lib/services.ts";

/**
 * `npm run package:worker` / `npm run package:gateway`: the service's dist/ as its deployment installs it
 * (infra/modules/worker zips services/cost-worker/dist; services/gateway/Dockerfile copies
 * services/gateway/dist): the bundle, a package.json with the packages left outside it, and the
 * package-lock.json that `npm ci` installs them from.
 */
const service = process.argv[2];
if (service !== "gateway" && service !== "worker") {
  console.error("usage: tsx scripts/package-service.ts gateway|worker");
  process.exit(1);
}
const name: ServiceName = service;
await bundle(BUNDLES[name]);
const dist = join(REPO_ROOT, SERVICES[name].dir, "dist");
const manifest = serviceManifest(name);
const lock = serviceLockfile(manifest);
const packaged = { ...manifest, allowScripts: allowScriptsFor(lock) };
writeFileSync(join(dist, "package.json"), `${JSON.stringify(packaged, null, 2)}\n`);
if (name === "gateway") copyDashboardAssets(dist);
writeFileSync(join(dist, "package-lock.json"), `${JSON.stringify(lock, null, 2)}\n`);
console.log(`wrote ${SERVICES[name].dir}/dist/package.json and package-lock.json`);

/** The dashboard's files and Chart.js beside the bundle, where the packaged gateway looks for them. */
function copyDashboardAssets(dist: string) {
  const publicDir = join(dist, "public");
  // What the dashboard serves, not its tests or type declarations.
  cpSync(join(REPO_ROOT, SERVICES.gateway.dir, "public"), publicDir, {
    recursive: true,
    filter: (source) => !source.endsWith(".test.ts") && !source.endsWith(".d.ts"),
  });
  mkdirSync(join(publicDir, "vendor"), { recursive: true });
  const chart = join(dirname(createRequire(import.meta.url).resolve("chart.js")), "chart.umd.min.js");
  cpSync(chart, join(publicDir, "vendor", "chart.umd.min.js"));
  console.log(`copied the dashboard's assets to ${SERVICES.gateway.dir}/dist/public`);
}
