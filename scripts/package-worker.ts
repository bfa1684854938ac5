import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { BUNDLES, bundle } from "./lib/bundle.ts";
import { REPO_ROOT } from "./lib/services.ts";
import { workerLockfile, workerManifest } from "./lib/worker-package.ts";

/**
 * `npm run package:worker`: services/cost-worker/dist as Cloud Functions builds it (infra/modules/worker
 * zips this folder): the bundle, a package.json with the packages left outside it, and the package-lock.json
 * that `npm ci` installs them from.
 */
await bundle(BUNDLES.worker);
const dist = join(REPO_ROOT, "services/cost-worker/dist");
const manifest = workerManifest();
writeFileSync(join(dist, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
writeFileSync(join(dist, "package-lock.json"), `${JSON.stringify(workerLockfile(manifest), null, 2)}\n`);
console.log("wrote services/cost-worker/dist/package.json and package-lock.json");
