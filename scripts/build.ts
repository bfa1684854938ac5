import { BUNDLES, bundle } from "./lib/bundle.ts";

/**
 * `npm run build` (with `npm run package:worker` after it): both services' bundles, which the gateway
 * image and the benchmark run.
 */
for (const target of Object.values(BUNDLES)) await bundle(target);
